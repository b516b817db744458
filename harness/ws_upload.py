"""File uploads for harness/ws_client.py's sessions, as the frontend's st.file_uploader does them.

The client asks the session for upload addresses (`BackMsg.file_urls_request`), PUTs each
file there as multipart form data, then sets the uploader's widget value to the files'
ids, which the next rerun sends. A server with XSRF protection on (Streamlit's default)
also wants the browser's XSRF cookie and header; benches start theirs with
STREAMLIT_SERVER_ENABLE_XSRF_PROTECTION=false, which this app needs nothing of.

    async with connected(port) as client:
        await client.rerun(page="train")
        await upload(client, port, "train_upload", [("big.txt", data)])
        run = await client.rerun()                     # the uploader's callback runs
"""

from __future__ import annotations

import asyncio
import urllib.request
import uuid
from typing import Any

from harness.ws_client import StreamlitClient
from ui.server.streamlit_internals import (
    BackMsg,
    FileUploaderState,
    ForwardMsg,
    UploadedFileInfo,
    WidgetState,
)

NO_XSRF = {"STREAMLIT_SERVER_ENABLE_XSRF_PROTECTION": "false"}


async def upload(
    client: StreamlitClient, port: int, key: str, files: list[tuple[str, bytes]]
) -> None:
    """Upload (name, bytes) files to the uploader with this key; the next rerun sends them."""
    request_id = uuid.uuid4().hex
    message = BackMsg()
    message.file_urls_request.request_id = request_id
    message.file_urls_request.file_names.extend(name for name, _ in files)
    message.file_urls_request.session_id = client.session_id
    await client.socket.send(message.SerializeToString())
    urls = await asyncio.wait_for(_file_urls(client, request_id), 60)
    infos = []
    for (name, data), where in zip(files, urls.file_urls, strict=True):
        await asyncio.to_thread(_put, f"http://127.0.0.1:{port}{where.upload_url}", name, data)
        info = UploadedFileInfo(file_id=where.file_id, name=name, size=len(data), file_urls=where)
        infos.append(info)
    client.values[key] = WidgetState(
        file_uploader_state_value=FileUploaderState(uploaded_file_info=infos)
    )


async def _file_urls(client: StreamlitClient, request_id: str) -> Any:
    """The server's answer to our request (a ForwardMsg.file_urls_response)."""
    while True:
        message = ForwardMsg()
        message.ParseFromString(await client.socket.recv())
        if message.WhichOneof("type") == "file_urls_response":
            response = message.file_urls_response
            if response.response_id == request_id:
                if response.error_msg:
                    raise RuntimeError(response.error_msg)
                return response


def _put(url: str, name: str, data: bytes) -> None:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(
        url,
        data=body,
        method="PUT",
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    with urllib.request.urlopen(request, timeout=120) as answer:
        answer.read()
