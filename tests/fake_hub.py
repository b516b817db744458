"""A small Hub on 127.0.0.1 that answers huggingface_hub as the real one does, for tests.

Only the three requests a tokenizer's fetch makes (huggingface_hub's own client makes them,
unmocked, with HF_ENDPOINT pointing here): the repo's file list with sizes
(`GET /api/models/ORG/NAME/revision/main?blobs=true`), and each file's metadata and bytes
(`HEAD` and `GET /ORG/NAME/resolve/COMMIT/PATH`). A gated repo answers 401 with
`X-Error-Code: GatedRepo`, an unknown one 404 with `RepoNotFound`, as the Hub does; the
headers that matter are the Hub's own (`X-Repo-Commit`, `ETag`, `Content-Length`).
`requests` counts what was asked, so a test can see a cached file was not fetched again.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit


@dataclass
class FakeRepo:
    files: Mapping[str, bytes]
    gated: bool = False
    # sizes the file list claims, where they differ from the bytes (a file "too big")
    listed_sizes: Mapping[str, int] = field(default_factory=dict)

    @property
    def commit(self) -> str:
        digest = hashlib.sha1()
        for path in sorted(self.files):
            digest.update(path.encode() + self.files[path])
        return digest.hexdigest()


@dataclass
class FakeHub:
    repos: dict[str, FakeRepo]
    url: str = ""
    requests: list[str] = field(default_factory=list)
    file_seconds: float = 0.0  # each file's bytes are sent after this long
    sending: int = 0  # files being sent now
    most_sending: int = 0  # the most sent at once
    lock: threading.Lock = field(default_factory=threading.Lock)


def _handler(hub: FakeHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # quiet
            pass

        def do_GET(self) -> None:
            self._answer(body=True)

        def do_HEAD(self) -> None:
            self._answer(body=False)

        def _answer(self, body: bool) -> None:
            path = unquote(urlsplit(self.path).path)
            hub.requests.append(f"{self.command} {path}")
            if path.startswith("/api/models/"):
                repo_name = path.removeprefix("/api/models/").split("/revision/")[0]
                return self._file_list(repo_name, body)
            parts = path.strip("/").split("/")
            if len(parts) >= 5 and parts[2] == "resolve":
                return self._file("/".join(parts[:2]), "/".join(parts[4:]), body)
            self._send(404, b"{}", {"X-Error-Code": "EntryNotFound"}, body)

        def _repo(self, name: str, body: bool) -> FakeRepo | None:
            repo = hub.repos.get(name)
            if repo is None:
                message = {"X-Error-Code": "RepoNotFound", "X-Error-Message": "Not found"}
                self._send(404, b'{"error": "Repository not found"}', message, body)
                return None
            if repo.gated:
                message = {
                    "X-Error-Code": "GatedRepo",
                    "X-Error-Message": "Access to model is restricted.",
                }
                self._send(401, b'{"error": "gated"}', message, body)
                return None
            return repo

        def _file_list(self, name: str, body: bool) -> None:
            repo = self._repo(name, body)
            if repo is None:
                return
            siblings = [
                {"rfilename": path, "size": repo.listed_sizes.get(path, len(data))}
                for path, data in repo.files.items()
            ]
            info = {"id": name, "modelId": name, "sha": repo.commit, "siblings": siblings}
            self._send(200, json.dumps(info).encode(), {"Content-Type": "application/json"}, body)

        def _file(self, name: str, file: str, body: bool) -> None:
            repo = self._repo(name, body)
            if repo is None:
                return
            if file not in repo.files:
                self._send(404, b"{}", {"X-Error-Code": "EntryNotFound"}, body)
                return
            data = repo.files[file]
            headers = {
                "X-Repo-Commit": repo.commit,
                "ETag": f'"{hashlib.sha1(data).hexdigest()}"',
                "Content-Type": "application/octet-stream",
            }
            if not body:
                self._send(200, data, headers, body)
                return
            with hub.lock:
                hub.sending += 1
                hub.most_sending = max(hub.most_sending, hub.sending)
            try:
                time.sleep(hub.file_seconds)
                self._send(200, data, headers, body)
            finally:
                with hub.lock:
                    hub.sending -= 1

        def _send(self, status: int, data: bytes, headers: dict[str, str], body: bool) -> None:
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if body:
                self.wfile.write(data)

    return Handler


@contextmanager
def serving(repos: dict[str, FakeRepo], file_seconds: float = 0.0) -> Iterator[FakeHub]:
    """The fake Hub on a free port of 127.0.0.1 while the block runs."""
    hub = FakeHub(repos, file_seconds=file_seconds)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(hub))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
