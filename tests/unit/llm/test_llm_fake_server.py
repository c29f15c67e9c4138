"""The fake model server itself: loud failures, recording, clean shutdown."""

from __future__ import annotations

import contextlib
import threading
from typing import Any

import httpx2

from support.fake_model_server import FakeModelServer, json_response


def _post(url: str, **kwargs: Any) -> httpx2.Response:
    # Plain http on loopback: skip loading the CA bundle (~0.1 s per client).
    with httpx2.Client(verify=False) as client:
        return client.post(url, **kwargs)


def _server_threads() -> set[threading.Thread]:
    return {
        thread
        for thread in threading.enumerate()
        if thread.name == "fake-model-server" or "process_request_thread" in thread.name
    }


def test_unscripted_request_fails_loudly(fake_model_server: FakeModelServer) -> None:
    response = _post(fake_model_server.anthropic_base_url + "/v1/messages", json={"a": 1})
    assert response.status_code == 500
    assert "no scripted reply for POST /v1/messages (request #1)" in response.text
    assert fake_model_server.requests[0].body == {"a": 1}


def test_reply_scripted_for_the_other_wire_format_fails(
    fake_model_server: FakeModelServer,
) -> None:
    fake_model_server.add_openai_reply("hi")
    response = _post(fake_model_server.base_url + "/v1/messages", json={})
    assert response.status_code == 500
    assert "openai reply was scripted" in response.text


def test_records_requests_and_counts_pending(fake_model_server: FakeModelServer) -> None:
    fake_model_server.add_anthropic_reply("one")
    fake_model_server.add_error(418, headers={"x-teapot": "yes"})
    fake_model_server.add_callback(lambda request: json_response({"echo": request.body}))
    assert fake_model_server.pending == 3

    first = _post(
        fake_model_server.base_url + "/v1/messages", json={"n": 1}, headers={"X-Trace": "abc"}
    )
    second = _post(fake_model_server.base_url + "/anything", json={"n": 2})
    third = _post(fake_model_server.base_url + "/anything", json={"n": 3})

    assert first.json()["content"] == [{"type": "text", "text": "one"}]
    assert (second.status_code, second.headers["x-teapot"]) == (418, "yes")
    assert third.json() == {"echo": {"n": 3}}
    assert fake_model_server.bodies() == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert fake_model_server.requests[0].headers["x-trace"] == "abc"
    fake_model_server.assert_all_used()


def test_close_releases_an_abandoned_delayed_request() -> None:
    before = _server_threads()
    server = FakeModelServer()
    server.add_anthropic_reply("late", delay=30)
    client_done = threading.Event()

    def abandoned_client() -> None:
        with contextlib.suppress(httpx2.HTTPError):
            _post(server.base_url + "/v1/messages", json={}, timeout=60)
        client_done.set()

    threading.Thread(target=abandoned_client, daemon=True).start()
    assert server.wait_for_requests(1), "the request never arrived"

    server.close()

    assert server.replies_sent == 0, "close dropped the held reply instead of waiting it out"
    assert client_done.wait(2), "the client was left hanging"
    assert _server_threads() - before == set()
