"""Every Streamlit call that renders Markdown, and whether each text it gets is safe.

Streamlit renders Markdown in bodies (st.markdown, st.caption, st.info…), labels and
`help=` of every widget, metric values and deltas, radio options and captions, tab
labels, expander and popover titles, progress and spinner texts, column headers' help.
A text a user gave (a file name, run name, special token, pattern, passage) must reach
them through `ui.views.formatting.markdown_text`, or it becomes a link or an image on
every visitor's screen (issue 21, section 3).

`unsafe_texts()` walks the app's source (ui/, pages/, streamlit_app.py) and returns every
argument of such a call that it cannot show to be safe. An argument is safe when it is

- a literal, or a `markdown_text(…)` call;
- an f-string, `+` or `… if … else …` whose parts are all safe;
- a value formatted as a number (`f"{count:,}"`, `{share:.1%}`): a str raises there;
- a call of a function that only writes numbers or our words (`NUMBER_TEXTS`);
- a local name whose every assignment in the function is safe, a module constant
  assigned a safe value, or a call of a function of the app whose every `return` is safe;
- on `ALLOWED` below, with the reason it holds none of a user's text.

>>> call = ast.parse('st.caption(f"{markdown_text(name)}: {count:,} of {spec.source}")').body[0]
>>> [ast.unparse(part) for part in _Checker({}).unsafe(call.value.args[0], [])]
['spec.source']
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "streamlit_app.py", *sorted((ROOT / "ui").rglob("*.py"))]
SOURCES += sorted((ROOT / "pages").rglob("*.py"))

# the Markdown each call renders: positional places and keyword names (help= on all)
_BODY = ((0,), ("body",))
_LABEL = ((0,), ("label",))
MARKDOWN_PLACES: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    **dict.fromkeys(("markdown", "caption", "info", "warning", "error", "success"), _BODY),
    **dict.fromkeys(("title", "header", "subheader", "toast"), _BODY),
    "write": ((0, 1, 2, 3, 4, 5), ()),
    "metric": ((0, 1, 2), ("label", "value", "delta")),
    # subtle: radio and select_slider options are Markdown; selectbox's and multiselect's
    # are plain text (their labels are not)
    "radio": ((0, 1), ("label", "options", "captions")),
    "select_slider": ((0, 1), ("label", "options")),
    **dict.fromkeys(
        """selectbox multiselect checkbox toggle slider text_input number_input text_area
        button download_button file_uploader popover expander status color_picker date_input
        pills segmented_control feedback link_button form_submit_button""".split(),  # noqa: SIM905
        _LABEL,
    ),
    "tabs": ((0,), ("tabs",)),
    "page_link": ((), ("label",)),
    "Page": ((), ("title",)),
    "progress": ((1,), ("text",)),
    "spinner": ((0,), ("text",)),
    **dict.fromkeys(  # st.column_config's columns: a header's label and help
        """Column TextColumn NumberColumn CheckboxColumn SelectboxColumn ListColumn LinkColumn
        DatetimeColumn DateColumn TimeColumn ProgressColumn LineChartColumn BarChartColumn
        AreaChartColumn ImageColumn JSONColumn""".split(),  # noqa: SIM905
        ((0,), ("label",)),
    ),
}
# receivers that are not Streamlit (a logger's .warning, a file's .write, a child's pipe:
# `stdout.write`, `child.stdin.write` in ui/server/)
NOT_STREAMLIT = {
    "log",
    "logger",
    "logging",
    "sink",
    "handle",
    "file",
    "stream",
    "warnings",
    "stdin",
    "stdout",
}

# functions of ours (or Python's) that write only numbers and our own words, with the
# places of their arguments that are words (checked like any text)
NUMBER_TEXTS: dict[str, tuple[int, ...]] = {
    **dict.fromkeys(("len", "int", "float", "round", "abs", "min", "max", "sum"), ()),
    "plural": (1,),  # "1,234 merges": the count is a number, the noun is checked
    "format_seconds": (),  # "2.5 s"
    "fmt_int": (),  # "1,234"
    "fmt_ratio": (),  # "3.21"
    "format_ids": (),  # "[1, 2, … (3 more)]": token ids are numbers
}
# the functions that make any text literal in Markdown
SANITISERS = {
    "markdown_text",  # the one helper: escapes punctuation, breaks bare addresses
    "code",  # ui/vocabulary/lineage.code: an inline code span fenced longer than any
    # backtick run in its text, on one line; nothing inside a code span is parsed
}
# number formats: a str raises ValueError for these, so the value is a number
_NUMBER_FORMAT_TYPES = set("bcdeEfFgGnoxX%")

# (file of the Streamlit call, expression as written) → why it holds none of a user's text.
# Each entry must still be reached (tests/app/test_markdown_calls.py checks), so a stale one
# cannot hide a new call.
_STOP_REASON = "a StopReason's fixed sentence (explorer/training/history.py)"
_BUNDLED = "an OpenAI vocabulary's name (ui/session/run_spec.OPENAI), never a user's"
ALLOWED: dict[tuple[str, str], str] = {
    **{
        (path, "history.stop_reason.describe()"): _STOP_REASON
        for path in (
            "ui/animate/lesson/download.py",
            "pages/animate.py",
        )
    },
    ("ui/train/results.py", "history.stop_sentence()"): (
        "MergeHistory.stop_sentence: a StopReason's fixed sentence with numbers"
    ),
    ("ui/shell.py", "StopReason(stopped).describe()"): _STOP_REASON,
    ("ui/shell.py", "run.history.tie_rule.value"): "a TieRule's value: lowest-ids…",
    ("ui/train/results.py", "rule.value"): "a TieRule's value",
    ("ui/train/results.py", "rule.winner_phrase"): "a TieRule's fixed phrase",
    ("ui/train/results.py", "file.label"): "a download's label (explorer.files.export)",
    ("ui/train/form_view.py", "ties.DEFAULT_TIE_RULE_NAME"): "the default TieRule's value",
    ("ui/train/form_view.py", "ties.TIE_RULE_HELP"): "TieRule labels and descriptions",
    ("ui/train/tokenizer_files.py", "MAX_FILE_BYTES"): "a number (bytes, as MB)",
    ("ui/train/request.py", "text"): "progress_reporter's 'Merging: 1 of 2 merges' (numbers)",
    ("ui/animate/pair_table/view.py", "table.winner.pair"): "a pair of token ids (ints)",
    ("ui/animate/pair_table/view.py", "merge.pair"): "a pair of token ids (ints)",
    ("ui/animate/quiz/panel.py", "question.merge"): "a merge number (int)",
    ("ui/tokens/encode_steps.py", "encode_place(state).step"): "an EncodePlace's step (int)",
    **{
        (path, "SAMPLES[DEFAULT_SAMPLE].title.split(' (')[0]"): "a bundled sample's title"
        for path in ("ui/animate/passage.py",)
    },
    ("ui/compare/sections.py", "dict.fromkeys((section.tab for section in sections))"): (
        "Compare's own tab titles (pages/compare.py SECTIONS)"
    ),
    ("ui/views/section.py", "section.what"): "Compare's own section names (pages/compare.py)",
    ("ui/compare/curve.py", "point.tokens"): "curves are keyed by TRAINING/YOURS/HELD_OUT",
    ("ui/compare/curve.py", "tokens_at_every_size(_tokenizer, text)"): "as point.tokens",
    ("ui/compare/heldout.py", "split.unit"): "a HoldoutSplit's unit: line or paragraph",
    ("pages/train.py", "split.unit"): "a HoldoutSplit's unit: line or paragraph",
    ("ui/compare/heldout.py", "split.percent"): "the held-out percent (int)",
    ("ui/compare/languages.py", "dearest['Language']"): "a language name from our CSV",
    ("ui/compare/overlap.py", "TOP_MISSING"): "a number",
    ("ui/compare/overlap.py", "overlap.name"): _BUNDLED,
    ("ui/compare/passage.py", "other.spec.text_key"): _BUNDLED,
    ("ui/compare/pair/merges.py", "s.letter"): "A or B",
    ("ui/compare/pair/section.py", "side.letter"): "A or B",
    ("ui/compare/pair/splits.py", "side.letter"): "A or B",
    ("ui/compare/pair/section.py", "other.pattern"): "example_spec sets gpt4 or none",
    ("ui/tokens/encode_steps.py", "MAX_TRACE_CHARS"): "a number",
    ("ui/tokens/encode_steps.py", "found.chunk"): "a chunk index (int)",
    ("ui/tokens/encode_steps.py", "step.merge_number"): "a merge number (int)",
    ("ui/tokens/encode_steps.py", "step_view(passage)"): "a step number (int)",
    ("ui/vocabulary/token_detail.py", "row['id']"): "a token id (int)",
    ("ui/vocabulary/typed_search.py", "_tokenizer.encode_ordinary(text)"): "token ids (ints)",
}
_USED: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class UnsafeText:
    """One argument of a Markdown call that may carry a user's text."""

    path: str
    line: int
    call: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.call}(… {self.text} …)"


def _is_number_format(spec: ast.expr | None) -> bool:
    """True for `:,`, `:.1f`, `:5d`, `:.0%`: format specs a str cannot take."""
    if not isinstance(spec, ast.JoinedStr) or not spec.values:
        return False
    last = spec.values[-1]
    if not isinstance(last, ast.Constant) or not isinstance(last.value, str) or not last.value:
        return False
    return last.value[-1] in _NUMBER_FORMAT_TYPES or last.value[-1] in ",_"


def _callee_name(func: ast.expr) -> str:
    """`markdown_text` for both `markdown_text(x)` and `fmt.markdown_text(x)`."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


class _Checker:
    """Decides whether expressions of the app are safe to render as Markdown.

    `functions`, `constants` and `call_sites` cover every module, so a name is followed
    to where its value is made: a function's returns, a module constant, the arguments
    every caller passes for a parameter.
    """

    def __init__(self, trees: dict[Path, ast.Module]) -> None:
        self.functions: dict[str, list[ast.FunctionDef]] = {}
        self.module_of: dict[int, Path] = {}  # each function, lambda and module node's file
        self.imports: dict[Path, dict[str, Path]] = {}  # `from ui.x import name`: name → x.py
        for path, tree in trees.items():
            self.module_of |= dict.fromkeys(map(id, ast.walk(tree)), path)
            self.imports[path] = {
                alias.asname or alias.name: ROOT / (node.module.replace(".", "/") + ".py")
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module
                for alias in node.names
            }
        self.constants: dict[str, list[ast.expr]] = {}
        self.call_sites: dict[str, list[tuple[ast.Call, list[ast.AST]]]] = {}
        for tree in trees.values():
            parents = _parents(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef):
                    self.functions.setdefault(node.name, []).append(node)
                elif isinstance(node, ast.Call) and _callee_name(node.func):
                    site = (node, _enclosing_scopes(node, parents))
                    self.call_sites.setdefault(_callee_name(node.func), []).append(site)
            for node in tree.body:
                if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        if isinstance(target, ast.Name):
                            self.constants.setdefault(target.id, []).append(node.value)

    def unsafe(self, node: ast.expr, scopes: list[ast.AST], seen: frozenset = frozenset()) -> list:
        """The parts of `node` not shown to be safe (empty when it is safe)."""
        if isinstance(node, ast.Constant):
            return []
        if isinstance(node, ast.JoinedStr):
            return self._all(node.values, scopes, seen)
        if isinstance(node, ast.FormattedValue):
            if _is_number_format(node.format_spec):
                return []
            return self.unsafe(node.value, scopes, seen)
        if isinstance(node, ast.BinOp):  # `a + b`; `n * 100` of numbers
            return self._all([node.left, node.right], scopes, seen)
        if isinstance(node, ast.IfExp):
            return self._all([node.body, node.orelse], scopes, seen)
        if isinstance(node, ast.BoolOp):
            return self._all(node.values, scopes, seen)
        if isinstance(node, ast.Compare | ast.UnaryOp):
            return []  # a bool or a negated number
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            return self._all(node.elts, scopes, seen)
        if isinstance(node, ast.Dict):  # a table of our words: its keys and values are shown
            return self._all([*filter(None, node.keys), *node.values], scopes, seen)
        if isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            return self.unsafe(node.elt, [*scopes, node], seen)
        if isinstance(node, ast.DictComp):
            return self._all([node.key, node.value], [*scopes, node], seen)
        if isinstance(node, ast.Starred):  # (*shown,): every item of shown
            return self.unsafe(node.value, scopes, seen)
        if isinstance(node, ast.Lambda):
            return self.unsafe(node.body, [*scopes, node], seen)
        if isinstance(node, ast.Call):
            return self._unsafe_call(node, scopes, seen)
        if isinstance(node, ast.Name):
            return self._unsafe_name(node, scopes, seen)
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Call)
            and isinstance(node.slice, ast.Constant)
            and _callee_name(node.value.func) in self.functions
        ):  # `pieces, shown = preview_texts(…)`: the item each `return (…, …)` puts there
            return self._unsafe_item(node.value, node.slice.value, scopes, seen)
        if isinstance(node, ast.Subscript) and isinstance(node.value, _LITERAL_ITEMS):
            return self.unsafe(node.value, scopes, seen)  # one of a list's items
        if isinstance(node, ast.Subscript):  # TABLE[key]: one of a constant's values
            return self._unsafe_constant_ref(node.value, node, scopes, seen)
        if isinstance(node, ast.Attribute):  # module.CONSTANT
            return self._unsafe_constant_ref(node, node, scopes, seen)
        return [node]

    def _all(self, nodes: list[ast.expr], scopes: list[ast.AST], seen: frozenset) -> list:
        return [part for node in nodes for part in self.unsafe(node, scopes, seen)]

    def _unsafe_constant_ref(
        self, ref: ast.expr, whole: ast.expr, scopes: list[ast.AST], seen: frozenset
    ) -> list:
        """`SPEEDS`, `playback.SPEEDS` or `COLOR_HELP[key]` when it is a module constant."""
        if isinstance(ref, ast.Name):
            return self._unsafe_name(ref, scopes, seen) and [whole]
        if isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name):
            name = ref.attr
            if name in self.constants and name.isupper() and name not in seen:
                return self._all(self.constants[name], [], seen | {name}) and [whole]
        return [whole]

    def _unsafe_call(self, node: ast.Call, scopes: list[ast.AST], seen: frozenset) -> list:
        name = _callee_name(node.func)
        if name in SANITISERS:
            return []
        method_of = node.func.value if isinstance(node.func, ast.Attribute) else None
        if name in ("join", "format") and method_of is not None:  # " · ".join(parts)
            return self._all(
                [method_of, *node.args, *(kw.value for kw in node.keywords)], scopes, seen
            )
        if name in ("get", "__getitem__") and method_of is not None:  # TABLE.get(key)
            return self._unsafe_constant_ref(method_of, node, scopes, seen)
        if name in ("str", "list", "tuple", "sorted") and isinstance(node.func, ast.Name):
            return self._all(node.args, scopes, seen)
        if name in NUMBER_TEXTS and isinstance(node.func, ast.Name):
            words = [arg for index, arg in enumerate(node.args) if index in NUMBER_TEXTS[name]]
            return self._all(words, scopes, seen)
        if name in self.functions and name not in seen:
            found: list = []
            for function in self._definitions(node.func, scopes):
                bound = _Bound(function, _bind(function, node), scopes)
                for returned in _returns(function):
                    found += self.unsafe(returned, [bound], seen | {name})
            return found
        return [node]

    def _unsafe_item(self, call: ast.Call, index: int, scopes: list[ast.AST], seen: frozenset):
        name = _callee_name(call.func)
        if name in seen:
            return []
        found: list = []
        for function in self._definitions(call.func, scopes):
            bound = _Bound(function, _bind(function, call), scopes)
            for returned in _returns(function):
                if isinstance(returned, ast.Tuple) and index < len(returned.elts):
                    returned = returned.elts[index]
                found += self.unsafe(returned, [bound], seen | {name})
        return found

    def _definitions(self, func: ast.expr, scopes: list[ast.AST]) -> list[ast.FunctionDef]:
        """The functions a call may run: the one of its module or the one it imports by
        name; every function of that name for `module.name(…)`."""
        every = self.functions[_callee_name(func)]
        if not isinstance(func, ast.Name) or not scopes:
            return every
        innermost = scopes[-1].function if isinstance(scopes[-1], _Bound) else scopes[-1]
        module = self.module_of.get(id(innermost))
        source = self.imports.get(module, {}).get(func.id, module)
        return [f for f in every if self.module_of.get(id(f)) == source] or every

    def _scopes_outside(self, comprehension: ast.AST) -> list[ast.AST]:
        return self._current_scopes[: self._current_scopes.index(comprehension)]

    def _unsafe_name(self, node: ast.Name, scopes: list[ast.AST], seen: frozenset) -> list:
        self._current_scopes = scopes
        for scope in reversed(scopes):
            if isinstance(scope, _Bound) and node.id in _parameter_names(scope.function):
                if node.id in scope.arguments:  # what this call passes
                    return self.unsafe(scope.arguments[node.id], scope.caller_scopes, seen)
                return self._all(_default(scope.function, node.id), [], seen) or []
            scope = scope.function if isinstance(scope, _Bound) else scope
            if node.id in _parameter_names(scope):
                return self._unsafe_parameter(scope, node.id, seen)
            values = _assignments(scope, node.id)
            if values is not None:
                local = (id(scope), node.id)
                if local in seen:
                    return []  # `text += …`: each value given to it is checked once
                return self._all(values, scopes, seen | {local})
        if node.id in self.constants and node.id not in seen:
            return self._all(self.constants[node.id], [], seen | {node.id})
        if node.id in self.functions:
            return self._unsafe_call(ast.Call(func=node, args=[], keywords=[]), scopes, seen)
        return [node]

    def _unsafe_parameter(self, scope: ast.AST, name: str, seen: frozenset) -> list:
        """A parameter is as safe as what every caller passes for it (and its default); a
        comprehension's variable as the items it loops over."""
        if isinstance(scope, _COMPREHENSIONS):
            generator = next(g for g in scope.generators if _binds(g.target, name))
            outer = self._scopes_outside(scope)
            return self.unsafe(_iterated(generator.iter, generator.target, name), outer, seen)
        if isinstance(scope, ast.Lambda):
            return [ast.Name(id=name, ctx=ast.Load())]  # a lambda's argument: unknown
        key = ("parameter", id(scope), name)
        if key in seen:
            return []
        seen = seen | {key}
        positions = [argument.arg for argument in (*scope.args.posonlyargs, *scope.args.args)]
        index = positions.index(name) if name in positions else None
        sites = self.call_sites.get(scope.name, [])
        if not sites:
            return [ast.Name(id=f"{scope.name}({name})", ctx=ast.Load())]
        found: list = []
        for call, call_scopes in sites:
            passed = [kw.value for kw in call.keywords if kw.arg == name]
            if index is not None and index < len(call.args):
                passed.append(call.args[index])
            if any(isinstance(arg, ast.Starred) for arg in call.args) or any(
                kw.arg is None for kw in call.keywords
            ):
                passed = [ast.Name(id=f"{scope.name}(*…)", ctx=ast.Load())]
            found += self._all(passed or _default(scope, name), call_scopes, seen)
        return found


@dataclass(frozen=True)
class _Bound:
    """A function being followed from one call: its parameters are that call's arguments."""

    function: ast.FunctionDef
    arguments: dict[str, ast.expr]
    caller_scopes: list[ast.AST]


def _bind(function: ast.FunctionDef, call: ast.Call) -> dict[str, ast.expr]:
    """The argument a call passes for each parameter it names or fills by position."""
    positional = [argument.arg for argument in (*function.args.posonlyargs, *function.args.args)]
    if positional[:1] in (["self"], ["cls"]) and isinstance(call.func, ast.Attribute):
        positional = positional[1:]
    bound = {
        name: arg for name, arg in zip(positional, call.args) if not isinstance(arg, ast.Starred)
    }
    bound |= {kw.arg: kw.value for kw in call.keywords if kw.arg is not None}
    unknown = ast.Name(id=f"{function.name}(*…)", ctx=ast.Load())
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(
        kw.arg is None for kw in call.keywords
    ):
        bound |= dict.fromkeys(positional, unknown)
    return bound


_COMPREHENSIONS = (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)
_LITERAL_ITEMS = (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)


def _parameter_names(scope: ast.AST) -> set[str]:
    if isinstance(scope, _COMPREHENSIONS):
        return {
            n.id
            for gen in scope.generators
            for n in ast.walk(gen.target)
            if isinstance(n, ast.Name)
        }
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return set()
    every = [*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs]
    every += [scope.args.vararg, scope.args.kwarg]
    return {argument.arg for argument in every if argument is not None}


def _default(scope: ast.FunctionDef, name: str) -> list[ast.expr]:
    """A parameter's default value ([] when it has none)."""
    positional = [*scope.args.posonlyargs, *scope.args.args]
    defaults = dict(
        zip(
            [a.arg for a in positional][-len(scope.args.defaults) or len(positional) :],
            scope.args.defaults,
        )
    )
    defaults |= {
        a.arg: d for a, d in zip(scope.args.kwonlyargs, scope.args.kw_defaults) if d is not None
    }
    return [defaults[name]] if name in defaults else []


def _returns(function: ast.FunctionDef) -> list[ast.expr]:
    """The values a function returns (its nested functions' returns left out)."""
    found: list[ast.expr] = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        if isinstance(node, ast.Return) and node.value is not None:
            found.append(node.value)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _assignments(scope: ast.AST, name: str) -> list[ast.expr] | None:
    """Every value given to `name` in a function (None when it is not a local there).

    A parameter or a loop variable is a local whose value is not known: it is returned
    as itself, so the caller reports it.
    """
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return None
    values: list[ast.expr] = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                values.append(node.value)
            elif any(_binds(t, name) for t in node.targets):
                target = next(t for t in node.targets if _binds(t, name))
                values.append(_unpacked(node.value, target, name))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and _binds(node.target, name):
            if node.value is not None:
                values.append(node.value)
        elif isinstance(node, ast.For | ast.comprehension) and _binds(node.target, name):
            values.append(_iterated(node.iter, node.target, name))  # safe when its items are
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            if _binds(node.optional_vars, name):
                values.append(ast.Name(id=f"with … as {name}", ctx=ast.Load()))
        elif isinstance(node, ast.NamedExpr) and node.target.id == name:
            values.append(node.value)
    return values or None


def _unpacked(value: ast.expr, target: ast.expr, name: str) -> ast.expr:
    """The part of `value` that `a, b = value` gives to `name`: `value[1]` for b."""
    if isinstance(target, ast.Tuple | ast.List) and not any(
        isinstance(item, ast.Starred) for item in target.elts
    ):
        places = [index for index, item in enumerate(target.elts) if _binds(item, name)]
        if len(places) == 1 and isinstance(target.elts[places[0]], ast.Name):
            if isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
                return value.elts[places[0]]
            return ast.Subscript(value=value, slice=ast.Constant(places[0]), ctx=ast.Load())
    return value  # safe when the whole value is


def _iterated(iterable: ast.expr, target: ast.expr, name: str) -> ast.expr:
    """Where a loop variable's items come from: in `for a, b in zip(xs, ys)`, b's from ys;
    in `for i, x in enumerate(xs)`, i is a number; `table.items()` from the table."""
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name):
        called, args = iterable.func.id, iterable.args
        if called in ("zip", "enumerate") and isinstance(target, ast.Tuple):
            places = [index for index, item in enumerate(target.elts) if _binds(item, name)]
            if called == "enumerate":
                args = [ast.Constant(0), *args]  # the count
            if len(places) == 1 and places[0] < len(args):
                return _iterated(args[places[0]], target.elts[places[0]], name)
        if called in ("zip", "enumerate", "reversed", "sorted", "list"):
            return ast.Tuple(elts=[_iterated(arg, target, name) for arg in args], ctx=ast.Load())
    method = iterable.func if isinstance(iterable, ast.Call) else None
    if isinstance(method, ast.Attribute) and method.attr in ("items", "keys", "values"):
        return method.value
    return iterable


def _binds(target: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target))


def _markdown_arguments(call: ast.Call) -> list[ast.expr]:
    """The arguments of a call that Streamlit renders as Markdown ([] for other calls)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in MARKDOWN_PLACES:
        return []
    receiver = func.value
    if isinstance(receiver, ast.Name) and receiver.id in NOT_STREAMLIT:
        return []
    if isinstance(receiver, ast.Attribute) and receiver.attr in NOT_STREAMLIT:
        return []
    positions, keywords = MARKDOWN_PLACES[func.attr]
    found = [arg for index, arg in enumerate(call.args) if index in positions]
    found += [kw.value for kw in call.keywords if kw.arg in keywords or kw.arg == "help"]
    if func.attr in ("radio", "select_slider") and any(
        kw.arg == "format_func" for kw in call.keywords
    ):  # the options are shown through format_func, which is checked instead
        found = [arg for arg in found if arg is not (call.args[1:2] or [None])[0]]
        found = [
            arg
            for arg in found
            if not any(kw.arg == "options" and kw.value is arg for kw in call.keywords)
        ]
    return [arg for arg in found if not isinstance(arg, ast.Starred)]


def _parents(tree: ast.Module) -> dict[ast.AST, ast.AST]:
    return {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}


def _enclosing_scopes(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> list[ast.AST]:
    """The module, then each function and lambda around `node`, outermost first."""
    scopes: list[ast.AST] = []
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.Module):
            scopes.insert(0, node)
    return scopes


def _format_func_targets(call: ast.Call) -> list[ast.expr]:
    """A radio's `format_func=` as something to check: its lambda's body or the function."""
    for kw in call.keywords:
        if kw.arg == "format_func":
            if isinstance(kw.value, ast.Lambda):
                return [kw.value.body]
            return [ast.Call(func=kw.value, args=[], keywords=[])]
    return []


def unsafe_texts(sources: list[Path] = SOURCES, root: Path = ROOT) -> list[UnsafeText]:
    """Every part of a Markdown call's argument in `sources` not shown to be safe."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sources}
    checker = _Checker(trees)
    found: list[UnsafeText] = []
    for path, tree in trees.items():
        parents = _parents(tree)
        relative = path.relative_to(root).as_posix()
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            arguments = _markdown_arguments(call)
            if _callee_name(call.func) in ("radio", "select_slider"):
                arguments += _format_func_targets(call)
            scopes = _enclosing_scopes(call, parents)
            for argument in arguments:
                for part in checker.unsafe(argument, scopes):
                    written = ast.unparse(part)
                    if (relative, written) in ALLOWED:
                        _USED.add((relative, written))
                        continue
                    name = _callee_name(call.func)
                    found.append(UnsafeText(relative, call.lineno, name, written))
    return list(dict.fromkeys(found))


def unused_allowances(sources: list[Path] = SOURCES) -> list[tuple[str, str]]:
    """Entries of ALLOWED that no Markdown call in `sources` reaches any more."""
    _USED.clear()
    unsafe_texts(sources)
    return sorted(set(ALLOWED) - _USED)
