"""Canaries: what ui/server/streamlit_internals.py reads of Streamlit's private internals
(read from 1.67.0) is still there, in the shape it was read.

Each fails with one sentence naming the internal, what the app loses without it, and
where to look, so a Streamlit upgrade that moves one says so here before a class notices.
This file and the door are the only ones allowed to import Streamlit's private modules.
"""

from __future__ import annotations

import dataclasses
import inspect
import threading
import types
from collections.abc import Callable
from typing import Any

import altair as alt
import pandas as pd
import pyarrow as pa
import pytest
import streamlit
from streamlit.testing.v1 import AppTest

from ui.server import streamlit_internals as door

DOOR = "see ui/server/streamlit_internals.py and docs/streamlit-internals.md"


def canary(holds: bool, sentence: str) -> None:
    """Fail with `sentence` (and where to look), without a traceback, unless `holds`."""
    if not holds:
        pytest.fail(f"Streamlit {streamlit.__version__} {sentence}; {DOOR}", pytrace=False)


def fields_of(cls: type) -> set[str]:
    return {field.name for field in dataclasses.fields(cls)}


def sets_in_init(cls: type, attribute: str) -> bool:
    """Whether `cls.__init__` assigns `self.<attribute>` (read from its source)."""
    source = inspect.getsource(vars(cls)["__init__"])
    return f"self.{attribute} =" in source or f"self.{attribute}:" in source


# --- ask_fragment_rerun (a class's step follow) ---------------------------------------------

FRAGMENT_RERUN = "a class's follow would rerun the whole page for every step (twice the CPU)"


def test_rerun_data_has_the_fields_a_fragment_rerun_sets() -> None:
    from streamlit.runtime.scriptrunner import RerunData

    asked = {
        "query_string",
        "page_script_hash",
        "fragment_id_queue",
        "is_fragment_scoped_rerun",
        "cached_message_hashes",
        "context_info",
    }
    missing = asked - fields_of(RerunData)
    canary(not missing, f"has no RerunData field {sorted(missing)}: {FRAGMENT_RERUN}")


def test_the_script_run_context_has_what_a_fragment_rerun_reads() -> None:
    from streamlit.runtime.scriptrunner import ScriptRunContext

    wanted = {"fragment_storage", "script_requests", "query_string", "cached_message_hashes"}
    missing = (wanted | {"context_info"}) - fields_of(ScriptRunContext)
    canary(not missing, f"has no ScriptRunContext.{sorted(missing)}: {FRAGMENT_RERUN}")
    canary(
        isinstance(inspect.getattr_static(ScriptRunContext, "page_script_hash"), property),
        f"has no ScriptRunContext.page_script_hash property: {FRAGMENT_RERUN}",
    )


def stand_in_context(key: str) -> tuple[Any, Any, str]:
    """A script run's context as ask_fragment_rerun reads it, with Streamlit's own
    fragment storage (a fragment registered under `key`) and request queue."""
    from streamlit.runtime.fragment import MemoryFragmentStorage
    from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequests

    storage = MemoryFragmentStorage()
    storage.register("fragment-id", lambda: None, target_key=key)
    requests = ScriptRequests()
    context = types.SimpleNamespace(
        fragment_storage=storage,
        script_requests=requests,
        query_string="class=K7MQ3",
        page_script_hash="page-hash",
        cached_message_hashes=frozenset({"h"}),
        context_info=None,
    )
    return context, requests, "fragment-id"


def test_a_fragment_rerun_is_asked_of_the_script_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    import streamlit.runtime.scriptrunner as scriptrunner
    from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType

    context, requests, fragment_id = stand_in_context("animate_step_view")
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx", lambda **_: context)
    asked = door.ask_fragment_rerun("animate_step_view")
    canary(asked is True, f"refused a fragment-scoped RerunData (got {asked}): {FRAGMENT_RERUN}")
    request = requests.on_scriptrunner_yield()
    canary(
        request is not None
        and request.type is ScriptRequestType.RERUN
        and request.rerun_data.fragment_id_queue == [fragment_id]
        and request.rerun_data.is_fragment_scoped_rerun
        and request.rerun_data.query_string == "class=K7MQ3",
        f"no longer ends a run at a yield point for a fragment's rerun: {FRAGMENT_RERUN}",
    )
    assert door.ask_fragment_rerun("no such fragment") is None  # not drawn: the whole page


def test_a_stopping_session_takes_no_fragment_rerun(monkeypatch: pytest.MonkeyPatch) -> None:
    import streamlit.runtime.scriptrunner as scriptrunner

    context, requests, _ = stand_in_context("k")
    requests.request_stop()
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx", lambda **_: context)
    canary(
        door.ask_fragment_rerun("k") is False,
        f"no longer says a stopped session's rerun request was refused: {FRAGMENT_RERUN}",
    )


def test_a_renamed_rerun_data_field_falls_back_to_the_whole_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bug the door fixed: RerunData(...) itself inside the fallback's try."""
    import streamlit.runtime.scriptrunner as scriptrunner

    context, _, _ = stand_in_context("k")
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx", lambda **_: context)

    def renamed(**fields: object) -> None:
        raise TypeError("RerunData.__init__() got an unexpected keyword argument")

    monkeypatch.setattr(scriptrunner, "RerunData", renamed)
    assert door.ask_fragment_rerun("k") is None


# --- run_events (AppSession's race) ---------------------------------------------------------

RACE = "a finished run's drawing may be lost to the next request again (ui/server/run_events.py)"


def test_app_session_request_rerun_is_there_to_wrap() -> None:
    from streamlit.runtime.app_session import AppSession

    method = getattr(AppSession, "request_rerun", None)
    canary(callable(method), f"has no AppSession.request_rerun: {RACE}")
    parameters = list(inspect.signature(method).parameters) if callable(method) else []
    canary(
        parameters == ["self", "client_state"],
        f"changed AppSession.request_rerun's parameters to {parameters}: {RACE}",
    )


def test_a_session_keeps_its_loop_and_runner_where_they_are_read() -> None:
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.scriptrunner import ScriptRunner

    for cls, attribute in (
        (AppSession, "_event_loop"),
        (AppSession, "_scriptrunner"),
        (ScriptRunner, "_requests"),
    ):
        canary(sets_in_init(cls, attribute), f"no longer sets {cls.__name__}.{attribute}: {RACE}")


def test_a_stopped_runner_is_told_by_its_request_state() -> None:
    """What a runner does when its run ends with nothing queued, and how the door sees it."""
    from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequests

    requests = ScriptRequests()
    session = types.SimpleNamespace(_scriptrunner=types.SimpleNamespace(_requests=requests))
    canary(not door.session_runner_stopped(session), f"counts a fresh runner as stopped: {RACE}")
    requests.on_scriptrunner_ready()  # nothing queued: the runner stops
    canary(
        door.session_runner_stopped(session),
        f"no longer marks a finished runner's ScriptRequests._state STOP: {RACE}",
    )


def test_the_wrapper_is_installed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.runtime.app_session import AppSession

    def plain(self: Any, client_state: Any) -> None:  # Streamlit's own, before the app ran
        return None

    monkeypatch.setattr(AppSession, "request_rerun", plain)  # put back after the test
    wraps: list[Callable[..., None]] = []

    def wrapper(original: door.RequestRerun) -> door.RequestRerun:
        wraps.append(original)
        return lambda session, client_state: original(session, client_state)

    assert door.wrap_request_rerun(wrapper)
    wrapped = AppSession.request_rerun
    assert not door.wrap_request_rerun(wrapper)
    assert AppSession.request_rerun is wrapped is not plain and wraps == [plain]
    assert wrapped.__wrapped__ is plain  # type: ignore[attr-defined]


def test_a_sessions_loop_is_read() -> None:
    import asyncio

    loop = asyncio.new_event_loop()
    try:
        assert door.session_event_loop(types.SimpleNamespace(_event_loop=loop)) is loop
        assert door.session_event_loop(object()) is None
    finally:
        loop.close()


# --- heavy work's checks --------------------------------------------------------------------

HEAVY = "heavy work in a child would no longer notice"


def test_a_script_run_has_a_yield_check_and_a_session_id() -> None:
    from streamlit.runtime.scriptrunner import ScriptRunContext

    context = fields_of(ScriptRunContext)
    canary("yield_check" in context, f"has no ScriptRunContext.yield_check: {HEAVY} Cancel")
    canary("session_id" in context, f"has no ScriptRunContext.session_id: {HEAVY} a closed tab")


def test_the_runtime_answers_whether_a_session_is_connected() -> None:
    from streamlit import runtime
    from streamlit.runtime.runtime import Runtime

    canary(callable(getattr(runtime, "exists", None)), f"has no runtime.exists(): {HEAVY} a tab")
    method = getattr(Runtime, "is_active_session", None)
    canary(
        method is not None and list(inspect.signature(method).parameters) == ["self", "session_id"],
        f"has no Runtime.is_active_session(session_id): {HEAVY} a closed tab",
    )
    assert door.session_connected("no runtime here")  # AppTest: "session known"
    assert door.run_session_id() is None and door.run_yield_check() is None  # no script run


def test_a_sessions_client_address_is_where_streamlit_keeps_it() -> None:
    from streamlit.runtime.runtime import Runtime
    from streamlit.runtime.session_manager import SessionClient

    client_context = getattr(SessionClient, "client_context", None)
    canary(
        callable(getattr(Runtime, "get_client", None)) and client_context is not None,
        "has no Runtime.get_client(id) or SessionClient.client_context: a class's per-client "
        "bounds (ui/classroom/store.py) would count no one",
    )
    assert door.client_remote_ip() is None  # no script run, no served session


def test_inside_a_script_run_the_checks_are_there() -> None:
    def script() -> None:
        import streamlit as st

        from ui.server import streamlit_internals as door

        check = door.run_yield_check()
        st.write(f"id {door.run_session_id() is not None} check {callable(check)}")

    app = AppTest.from_function(script).run()
    canary(
        not app.exception and app.markdown[0].value == "id True check True",
        f"gives a script run no session id or yield check ({app.markdown[0].value}): {HEAVY}",
    )


# --- a chart converted once -----------------------------------------------------------------

CHARTS = "every session would convert its own charts (~40 ms each on Compare)"


def line(rows: int) -> alt.Chart:
    frame = pd.DataFrame({"x": range(rows), "y": range(rows)})
    chart: alt.Chart = (
        alt.Chart(frame).mark_line().encode(x="x:Q", y="y:Q").configure_axis(labelFontSize=12)
    )
    return chart


def test_streamlits_altair_conversion_takes_one_chart() -> None:
    from streamlit.elements import vega_charts

    convert = getattr(vega_charts, "_convert_altair_to_vega_lite_spec", None)
    canary(callable(convert), f"has no vega_charts._convert_altair_to_vega_lite_spec: {CHARTS}")
    assert convert is not None
    required = [
        name
        for name, p in inspect.signature(convert).parameters.items()
        if p.default is inspect.Parameter.empty
    ]
    canary(
        len(required) == 1 and door.converts_altair(),
        f"changed _convert_altair_to_vega_lite_spec's parameters to {required}: {CHARTS}",
    )


def test_the_conversion_is_what_st_altair_chart_sends() -> None:
    spec = door.altair_to_vega_lite(line(7_000))  # past altair's own 5,000-row limit
    datasets = spec.get("datasets", {})
    canary(
        len(datasets) == 1 and all(isinstance(data, bytes) for data in datasets.values()),
        f"no longer puts a chart's dataframe in datasets as Arrow bytes: {CHARTS}",
    )
    table = pa.ipc.open_stream(next(iter(datasets.values()))).read_all()
    canary(table.num_rows == 7_000, f"cut a chart's data to {table.num_rows} rows: {CHARTS}")
    canary(
        spec["config"] == {"axis": {"labelFontSize": 12}},
        f"adds altair's default theme to a converted chart ({spec['config']}): {CHARTS}",
    )


def test_vega_lite_chart_passes_arrow_datasets_on() -> None:
    """st.vega_lite_chart (public) sends a spec's Arrow bytes as they are: the shared
    charts and Animate's charts (ui/animate/charts.py) rely on it."""

    def script(spec: dict) -> None:  # type: ignore[type-arg]
        import streamlit as st

        st.vega_lite_chart({**spec}, width="stretch")

    spec = door.altair_to_vega_lite(line(3))
    app = AppTest.from_function(script, args=(spec,)).run()
    sent = app.get("vega_lite_chart")[0].proto
    canary(
        [d.data.data for d in sent.datasets] == list(spec["datasets"].values()),
        f"converts Arrow bytes in a spec's datasets again: {CHARTS} and Animate's per step",
    )


def test_conversions_at_once_share_altairs_globals_safely() -> None:
    """Streamlit's conversion holds its lock on altair's global theme and transformer:
    two threads converting at once each get their own data (the reason it is used)."""
    specs: list[dict[str, Any]] = []
    threads = [
        threading.Thread(target=lambda n=n: specs.append(door.altair_to_vega_lite(line(n))))
        for n in (10, 20, 30, 40)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    rows = sorted(
        pa.ipc.open_stream(data).read_all().num_rows
        for spec in specs
        for data in spec["datasets"].values()
    )
    canary(rows == [10, 20, 30, 40], f"mixed two charts' data converted at once: {CHARTS}")


# --- a fragment's handled error -------------------------------------------------------------


def test_a_fragments_handled_error_has_its_class() -> None:
    from streamlit.errors import FragmentHandledException
    from streamlit.runtime import fragment

    canary(
        door.FragmentHandled is FragmentHandledException
        and "raise FragmentHandledException" in inspect.getsource(fragment),
        "no longer raises FragmentHandledException out of a failed fragment: a guarded "
        "section would show its message beside Streamlit's (ui/views/section.py)",
    )


# --- the server's configuration -------------------------------------------------------------


def test_a_configured_option_is_told_from_its_default() -> None:
    from streamlit import config

    canary(
        callable(getattr(config, "is_manually_set", None)),
        "has no config.is_manually_set: a join link would name the address the server "
        "listens on, not browser.serverAddress (ui/classroom/panel.py)",
    )
    assert door.option_set_by_user("browser.serverAddress") in (True, False)


# --- the wire format ------------------------------------------------------------------------

WIRE = "the harness, the benches and the browser tests speak Streamlit's wire format"

FIELDS_USED: dict[str, dict[str, set[str]]] = {
    # message -> {a field's path: the sub-fields read or set}
    "BackMsg": {
        "": {"rerun_script", "file_urls_request"},
        "rerun_script": {
            "query_string",
            "page_script_hash",
            "page_name",
            "cached_message_hashes",
            "widget_states",
            "fragment_id",
        },
        "file_urls_request": {"request_id", "file_names", "session_id"},
    },
    "ForwardMsg": {
        "": {
            "delta",
            "ref_hash",
            "navigation",
            "page_info_changed",
            "new_session",
            "script_finished",
            "auto_rerun",
            "file_urls_response",
            "session_status_changed",
            "metadata",
            "hash",
        },
        "metadata": {"cacheable", "run"},
        "metadata.run": {"fragment_ids"},
        "delta": {"new_element", "fragment_id"},
        "new_session": {"page_script_hash", "initialize"},
        "new_session.initialize": {"session_id"},
        "navigation": {"app_pages", "page_script_hash"},
        "navigation.app_pages": {"url_pathname", "page_script_hash"},
        "page_info_changed": {"query_string"},
        "auto_rerun": {"fragment_id", "interval"},
        "file_urls_response": {"response_id", "error_msg", "file_urls"},
        "file_urls_response.file_urls": {"upload_url", "file_id"},
        "session_status_changed": {"script_is_running"},
    },
    "WidgetState": {
        "": {
            "id",
            "trigger_value",
            "bool_value",
            "int_value",
            "string_value",
            "double_array_value",
            "file_uploader_state_value",
        },
    },
    "WidgetStates": {"": {"widgets"}},
    "FileUploaderState": {"": {"uploaded_file_info"}},
    "UploadedFileInfo": {"": {"file_id", "name", "size", "file_urls"}},
}


def descriptor_at(message: Any, path: str) -> Any:
    descriptor = message.DESCRIPTOR
    for name in filter(None, path.split(".")):
        descriptor = descriptor.fields_by_name[name].message_type
    return descriptor


@pytest.mark.parametrize("name", sorted(FIELDS_USED))
def test_the_wire_format_has_the_fields_we_speak(name: str) -> None:
    message = getattr(door, name)
    for path, wanted in FIELDS_USED[name].items():
        try:
            present = set(descriptor_at(message, path).fields_by_name)
        except (KeyError, AttributeError):
            present = set()
        missing = wanted - present
        canary(not missing, f"has no {name}.{path or '<top>'} fields {sorted(missing)}: {WIRE}")


def test_a_runs_end_is_told_as_before() -> None:
    statuses = door.ForwardMsg.ScriptFinishedStatus
    wanted = {
        "FINISHED_SUCCESSFULLY",
        "FINISHED_WITH_COMPILE_ERROR",
        "FINISHED_FRAGMENT_RUN_SUCCESSFULLY",
        "FINISHED_EARLY_FOR_RERUN",
    }
    missing = wanted - set(statuses.keys())
    canary(not missing, f"has no ForwardMsg.ScriptFinishedStatus {sorted(missing)}: {WIRE}")


def test_a_deferred_download_is_registered_as_before() -> None:
    parameters = list(inspect.signature(door.MediaFileManager.add_deferred).parameters)
    canary(
        parameters[:5] == ["self", "data_callable", "mimetype", "coordinates", "file_name"],
        f"changed MediaFileManager.add_deferred's parameters to {parameters}: "
        "tests/app/animate/test_app_lesson.py records the lesson download through it",
    )
