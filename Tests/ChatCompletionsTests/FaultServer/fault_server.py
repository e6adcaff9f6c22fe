#!/usr/bin/env python3
"""A misbehaving OpenAI-compatible chat completions server for the fault tests.

Standard library only. Listens on 127.0.0.1 (a free port unless --port is
given) and prints "PORT <n>" on its first line. The first path component
chooses the behaviour: POST /<mode>/v1/chat/completions. Modes:

  ok              a short, complete stream (two words, usage, [DONE])
  rate-limited    429 with Retry-After: 7 and an OpenAI error body
  rate-limited-date  429 with an HTTP-date Retry-After two minutes ahead
  server-error    500 with an error body
  unavailable     503 with a plain-text body
  context         400 with llama.cpp's context-size error
  content-filter  400 with an Azure-style content filter error
  empty-refusal   like llama-cpp-python with a prompt past its window: a streamed request gets 200 and
                  an event stream that ends without any event; the same request not streamed gets 400
                  with its "maximum context length is 2048 tokens" message (2531 tokens in the messages)
  empty-stream    a streamed request gets 200 and an empty event stream; not streamed, a one-token answer
  empty-stream-error  a streamed request gets 200 and an empty event stream; not streamed, a 500
  cut-off         one chunk, then half an event, then the connection closes
  no-done         one chunk without finish_reason, then a clean close
  malformed       a chunk that is not JSON
  error-event     one chunk, then an {"error": ...} event
  stall           one chunk, then silence for 30 s
  stall-head      silence for 30 s before the response head
  reset           one chunk, then a TCP reset
  reset-head      a TCP reset before any response
  endless         a chunk every 20 ms until the client goes away
  long            20000 one-token chunks as fast as possible (for benchmarks)
  headers         a JSON object of the request's headers (not a stream)
  endless-line    200 event stream: "data: " then bytes without a line end, until the client goes away
  endless-event   200 event stream: "data: x" lines with no blank line between them, until the client goes away
  endless-error   500 whose body never ends (bytes as fast as possible, no Content-Length)
  trickle-error   500 whose body never ends (one byte every 50 ms, no Content-Length)
  flood           200 event stream of 64 KiB content chunks as fast as possible, until the client goes away
  trickle-comments  200 event stream of ": tick" comment lines, one every 50 ms, until the client goes away
  endless-chunked-error  HTTP/1.1 500 with Transfer-Encoding: chunked whose 4 KiB chunks never end (one a ms)
  gzip-bomb-error  500 with Content-Encoding: gzip, whatever the request accepts: about 100 KiB that
                  inflate to 64 MiB of "error " (a client that inflates must stop at its cap)
  html            200 text/html login page that mentions the request's key
  echo-secrets    401 whose plain-text body echoes the request's URL, every header and the bare bearer token
  retry-absurd    429 with retry-after-ms: 1e400 and Retry-After: 99999999999
  nameless-call   a stream whose tool call has arguments but never a name
  nameless-call-echo  the same, with the bearer token echoed in the call's id
  two-calls-one-index  two weather calls with different ids, both at index 0; after tool output, text
  llamacpp        POST /llamacpp/tokenize answers like llama.cpp
  early-hints     HTTP/1.1 103 Early Hints (with an X-Interim header), then the `ok` stream
  long-head/<n>   a 200 whose head is exactly <n> bytes (status line, headers, blank line), then a short stream

  redirect-same   307 to /ok/... on the same origin
  redirect-cross  307 to the same path on http://localhost:<port> (another origin); its
                  /redirect-cross/tokenize answers 307 to localhost's /llamacpp/tokenize
  redirect-loop   302 to itself
  redirect-scheme 302 to file:///etc/passwd
  keepalive       the `ok` stream over HTTP/1.1 with Content-Length (the connection stays open)
  stale-head      `keepalive` for the first request of a connection; a later request on the same
                  connection gets a 200 head and then the connection closes (as uvicorn does when a
                  streamed answer that failed closes the connection the next request already uses)
  stale-silent    `keepalive` for the first request of a connection; a later one: the connection
                  closes without an answer (a kept-alive connection the server dropped)
  stale-body      `keepalive` for the first request of a connection; a later one gets a 200 head and
                  the first chunk, then the connection closes
  head-close      every request: a 200 head, then the connection closes
  keepalive-empty  HTTP/1.1 200 with an empty body (Content-Length: 0; the connection stays open)
  slow-start      5 s of silence, then 200 tokens (the concurrency benchmark)
  bulk            X-Bulk-Megabytes (default 200) MB of SSE comments, then one chunk (slow-consumer benchmark)
  backpressure    200 with a 32 MiB body (Content-Length; byte i is i % 251) sent as fast as the client
                  takes it; counts "backpressure-stalled" once when the socket stays full for a whole
                  second, "backpressure-finished" after the last byte, and "backpressure-settled" on the
                  first of the two

GET /requests lists every POST: path, Host, client port, Authorization,
whether it came as a proxy request (absolute URL), and the body's "stream" and
"max_tokens" (null when absent or not JSON). With --tls CERT KEY the
server speaks HTTPS. The first line also names a "blackhole" port that never
accepts (for connect timeouts).

GET /stats tells how many `endless`, `endless-line`, `endless-event` and
`endless-error` answers saw their client disconnect.

GET /await/<event>?count=N&timeout=S blocks until the server has seen <event>
at least N times (default 1), answering 200 {"count": n}, or 504 with the same
body after S seconds (default 10). Events: every name of /stats without the
"_disconnects" suffix, counted when the client goes away, and
"endless-streaming", counted when an `endless` answer has sent three chunks, and
the three `backpressure` events above.
A test waits on these instead of sleeping or polling.
"""

import argparse
import email.utils
import json
import os
import select
import signal
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

disconnects = {
    "endless": 0,
    "endless-line": 0,
    "endless-event": 0,
    "endless-error": 0,
    "trickle-comments": 0,
    "flood": 0,
    "endless-chunked-error": 0,
}
lock = threading.Lock()
changed = threading.Condition(lock)
events = {"endless-streaming": 0, "backpressure-stalled": 0, "backpressure-finished": 0, "backpressure-settled": 0}
requests_seen = []


def count_event(name):
    """Counts one `name` event (a key of `disconnects` or `events`) and wakes the waiters of /await."""
    with changed:
        table = disconnects if name in disconnects else events
        table[name] = table.get(name, 0) + 1
        changed.notify_all()


def event_count(name):
    return disconnects.get(name, events.get(name, 0))


def body_field(request, name):
    try:
        body = json.loads(request)
    except ValueError:
        return None
    return body.get(name) if isinstance(body, dict) else None


def chunk(content=None, finish=None, usage=None):
    delta = {} if content is None else {"content": content}
    body = {
        "id": "chatcmpl-fault",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fault",
        "choices": [] if usage else [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage:
        body["usage"] = usage
    return ("data: " + json.dumps(body) + "\n\n").encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json", headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def start_stream(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.flush()

    def send(self, data):
        self.wfile.write(data)
        self.wfile.flush()

    def reset(self):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()

    def await_event(self):
        path, _, query = self.path.partition("?")
        name = path[len("/await/"):]
        options = dict(part.partition("=")[::2] for part in query.split("&") if part)
        wanted = int(options.get("count", "1"))
        deadline = time.monotonic() + float(options.get("timeout", "10"))
        with changed:
            while event_count(name) < wanted and time.monotonic() < deadline:
                changed.wait(deadline - time.monotonic())
            count = event_count(name)
        self.reply(200 if count >= wanted else 504, {"count": count})

    def do_GET(self):
        if self.path.startswith("/await/"):
            self.await_event()
            return
        if self.path == "/requests":
            with lock:
                self.reply(200, list(requests_seen))
            return
        if self.path == "/stats":
            with lock:
                self.reply(200, {name.replace("-", "_") + "_disconnects": count for name, count in disconnects.items()})
            return
        self.reply(200, {"object": "list", "data": [{"id": "fault", "object": "model"}]})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        request = self.rfile.read(length) if length else b""
        proxied = self.path.startswith("http://")
        if proxied:
            self.path = "/" + self.path.split("/", 3)[3]
        with lock:
            requests_seen.append(
                {
                    "path": self.path,
                    "host": self.headers.get("Host", ""),
                    "port": self.client_address[1],
                    "authorization": self.headers.get("Authorization"),
                    "proxied": proxied,
                    "stream": body_field(request, "stream"),
                    "max_tokens": body_field(request, "max_tokens"),
                }
            )
        parts = [part for part in self.path.split("/") if part]
        mode = parts[0] if parts else "ok"
        if parts[-1:] == ["tokenize"]:
            if mode == "redirect-cross":
                self.redirect(307, f"http://localhost:{self.server.server_address[1]}/llamacpp/tokenize")
            elif mode == "llamacpp":
                content = json.loads(request or b"{}").get("content", "")
                self.reply(200, {"tokens": list(range(len(content.split())))})
            else:
                self.reply(404, {"detail": "Not Found"})
            return
        self.request_body = request
        # One handler serves every request of its connection.
        self.requests_on_connection = getattr(self, "requests_on_connection", 0) + 1
        getattr(self, "mode_" + mode.replace("-", "_"), self.mode_unknown)()

    def mode_unknown(self):
        self.reply(404, {"error": {"message": "unknown fault mode", "type": "not_found"}})

    def mode_ok(self):
        self.start_stream()
        self.send(b": keep-alive comment\n\n")
        self.send(chunk("Hello"))
        self.send(chunk(" there"))
        self.send(chunk(finish="stop"))
        self.send(chunk(usage={"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}))
        self.send(b"data: [DONE]\n\n")

    def mode_early_hints(self):
        # An interim response first: the client must wait for the final one.
        self.protocol_version = "HTTP/1.1"
        self.send(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\nX-Interim: yes\r\n\r\n")
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()
        self.send(chunk("Hello"))
        self.send(chunk(" there"))
        self.send(chunk(finish="stop"))
        self.send(b"data: [DONE]\n\n")
        self.close_connection = True

    def redirect(self, status, location):
        self.send_response(status)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def mode_redirect_same(self):
        self.redirect(307, "/ok/v1/chat/completions")

    def mode_redirect_cross(self):
        self.redirect(307, f"http://localhost:{self.server.server_address[1]}/ok/v1/chat/completions")

    def mode_redirect_loop(self):
        self.redirect(302, self.path)

    def mode_redirect_scheme(self):
        self.redirect(302, "file:///etc/passwd")

    KEEPALIVE_BODY = chunk("Hello") + chunk(" there") + chunk(finish="stop") + b"data: [DONE]\n\n"

    def keepalive_head(self):
        """The head of the `keepalive` answer (HTTP/1.1, Content-Length), sent at once."""
        self.protocol_version = "HTTP/1.1"
        self.close_connection = False
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(self.KEEPALIVE_BODY)))
        self.end_headers()
        self.wfile.flush()

    def mode_keepalive(self):
        self.keepalive_head()
        self.send(self.KEEPALIVE_BODY)

    def mode_stale_head(self):
        if self.requests_on_connection == 1:
            return self.mode_keepalive()
        self.keepalive_head()
        self.close_connection = True

    def mode_stale_silent(self):
        if self.requests_on_connection == 1:
            return self.mode_keepalive()
        self.close_connection = True

    def mode_stale_body(self):
        if self.requests_on_connection == 1:
            return self.mode_keepalive()
        self.keepalive_head()
        self.send(chunk("Hello"))
        self.close_connection = True

    def mode_keepalive_empty(self):
        self.protocol_version = "HTTP/1.1"
        self.close_connection = False
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
        self.wfile.flush()

    def mode_head_close(self):
        self.keepalive_head()
        self.close_connection = True

    def mode_slow_start(self):
        # For the concurrency benchmark: 5 s of silence, then 200 tokens.
        time.sleep(5)
        self.start_stream()
        for _ in range(200):
            self.send(chunk("tok"))
        self.send(chunk(finish="stop"))
        self.send(b"data: [DONE]\n\n")

    def mode_bulk(self):
        # For the slow-consumer benchmark: ?mb megabytes of SSE comments, then one chunk and [DONE].
        megabytes = int(self.headers.get("X-Bulk-Megabytes") or 200)
        self.start_stream()
        block = b": " + b"x" * (64 * 1024 - 3) + b"\n"
        try:
            for _ in range(megabytes * 16):
                self.wfile.write(block)
            self.send(chunk("end", finish="stop"))
            self.send(b"data: [DONE]\n\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def mode_headers(self):
        self.reply(200, {name.lower(): value for name, value in self.headers.items()})

    def mode_rate_limited(self):
        self.reply(
            429,
            {"error": {"message": "Rate limit reached", "type": "rate_limit_error", "code": "rate_limit_exceeded"}},
            headers=[("Retry-After", "7")],
        )

    def mode_rate_limited_date(self):
        self.reply(
            429,
            {"error": {"message": "slow down", "type": "requests"}},
            headers=[("Retry-After", email.utils.formatdate(time.time() + 120, usegmt=True))],
        )

    def mode_server_error(self):
        self.reply(500, {"error": {"message": "boom", "type": "server_error", "code": "internal"}})

    def mode_unavailable(self):
        self.reply(503, b"Service Unavailable", content_type="text/plain")

    def mode_context(self):
        self.reply(
            400,
            {
                "error": {
                    "code": 400,
                    "message": "the request exceeds the available context size, try increasing it",
                    "type": "exceed_context_size_error",
                    "n_prompt_tokens": 5000,
                    "n_ctx": 4096,
                }
            },
        )

    def mode_empty_refusal(self):
        if body_field(self.request_body, "stream"):
            self.start_stream()
            return
        completion = body_field(self.request_body, "max_tokens")
        message = (
            "This model's maximum context length is 2048 tokens. However, you requested {} tokens "
            "(2531 in the messages, {} in the completion). Please reduce the length of the messages or completion."
        ).format(2531 + (completion or 0), completion)
        self.reply(
            400,
            {
                "error": {
                    "message": message,
                    "type": "invalid_request_error",
                    "param": "messages",
                    "code": "context_length_exceeded",
                }
            },
        )

    def mode_empty_stream(self):
        if body_field(self.request_body, "stream"):
            self.start_stream()
            return
        self.reply(
            200,
            {
                "id": "chatcmpl-fault",
                "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": "length"}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6},
            },
        )

    def mode_empty_stream_error(self):
        if body_field(self.request_body, "stream"):
            self.start_stream()
            return
        self.mode_server_error()

    def mode_content_filter(self):
        self.reply(
            400,
            {
                "error": {
                    "code": "content_filter",
                    "message": "The response was filtered due to the prompt triggering the content management policy.",
                    "type": None,
                }
            },
        )

    def mode_cut_off(self):
        self.start_stream()
        self.send(chunk("Hello"))
        self.send(b'data: {"id":"chatcmpl-fault","choi')

    def mode_no_done(self):
        self.start_stream()
        self.send(chunk("Hello"))

    def mode_malformed(self):
        self.start_stream()
        self.send(chunk("Hello"))
        self.send(b"data: {this is not json}\n\n")

    def mode_error_event(self):
        self.start_stream()
        self.send(chunk("Hello"))
        self.send(b'data: {"error": {"message": "model crashed", "type": "server_error", "code": 500}}\n\n')

    def mode_stall(self):
        self.start_stream()
        self.send(chunk("Hello"))
        time.sleep(30)

    def mode_stall_head(self):
        time.sleep(30)

    def mode_reset(self):
        self.start_stream()
        self.send(chunk("Hello"))
        time.sleep(0.1)
        self.reset()

    def mode_reset_head(self):
        self.reset()

    def mode_endless(self):
        self.start_stream()
        sent = 0
        try:
            while True:
                self.send(chunk("word "))
                sent += 1
                if sent == 3:
                    count_event("endless-streaming")
                time.sleep(0.02)
        except (BrokenPipeError, ConnectionResetError):
            count_event("endless")


def send_forever(handler, mode, piece, delay=0.0):
    """Sends `piece` until the client goes away, then counts the disconnect."""
    try:
        while True:
            handler.wfile.write(piece)
            handler.wfile.flush()
            if delay:
                time.sleep(delay)
    except (BrokenPipeError, ConnectionResetError, OSError):
        if mode in disconnects:
            count_event(mode)


def mode_endless_line(handler):
    handler.start_stream()
    handler.send(b"data: ")
    send_forever(handler, "endless-line", b"x" * 65536)


def mode_endless_event(handler):
    handler.start_stream()
    send_forever(handler, "endless-event", b"data: " + b"x" * 1000 + b"\n")


def start_endless_error(handler, status=500):
    handler.send_response(status)
    handler.send_header("Content-Type", "text/plain")
    handler.end_headers()
    handler.wfile.flush()


def mode_endless_error(handler):
    start_endless_error(handler)
    send_forever(handler, "endless-error", b"error " * 10000)


def mode_trickle_error(handler):
    start_endless_error(handler)
    send_forever(handler, "trickle-error", b"e", delay=0.05)


def mode_flood(handler):
    handler.start_stream()
    send_forever(handler, "flood", chunk("x" * 65536))


BACKPRESSURE_BYTES = 32 << 20
BACKPRESSURE_PATTERN = bytes(i % 251 for i in range(65536 + 251))


def mode_backpressure(handler):
    handler.send_response(200)
    handler.send_header("Content-Type", "application/octet-stream")
    handler.send_header("Content-Length", str(BACKPRESSURE_BYTES))
    handler.end_headers()
    handler.wfile.flush()
    connection = handler.connection
    connection.setblocking(False)
    sent = 0
    settled = False
    try:
        while sent < BACKPRESSURE_BYTES:
            start = sent % 251
            piece = BACKPRESSURE_PATTERN[start:start + min(65536, BACKPRESSURE_BYTES - sent)]
            _, writable, _ = select.select([], [connection], [], 1.0)
            if not writable:
                if not settled:
                    settled = True
                    count_event("backpressure-stalled")
                    count_event("backpressure-settled")
                continue
            try:
                sent += connection.send(piece)
            except BlockingIOError:
                continue
        count_event("backpressure-finished")
        if not settled:
            count_event("backpressure-settled")
    except (BrokenPipeError, ConnectionResetError, OSError):
        pass


def mode_trickle_comments(handler):
    handler.start_stream()
    send_forever(handler, "trickle-comments", b": tick\n", delay=0.05)


def mode_endless_chunked_error(handler):
    handler.protocol_version = "HTTP/1.1"
    handler.send_response(500)
    handler.send_header("Content-Type", "text/plain")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    handler.wfile.flush()
    # About 4 MB/s at most. Even so, Linux's URLSession stalled here once on a loaded
    # machine (back-pressure suspending a task libcurl still feeds, see
    # TransportCapabilities.swift), so the test runs only on the fast-stream transports.
    piece = b"error " * 700
    send_forever(handler, "endless-chunked-error", b"%x\r\n" % len(piece) + piece + b"\r\n", delay=0.001)


GZIP_BOMB = []


def mode_gzip_bomb_error(handler):
    if not GZIP_BOMB:
        import gzip

        GZIP_BOMB.append(gzip.compress(b"error " * ((64 << 20) // 6), 6))
    body = GZIP_BOMB[0]
    handler.send_response(500)
    handler.send_header("Content-Type", "text/plain")
    handler.send_header("Content-Encoding", "gzip")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    try:
        handler.wfile.write(body)
        handler.wfile.flush()
    except (BrokenPipeError, ConnectionResetError, OSError):
        pass


def bearer_token(handler):
    value = handler.headers.get("Authorization") or ""
    return value.split(" ", 1)[1] if " " in value else value


def mode_html(handler):
    page = (
        "<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body>\x1b[31m<h1>Sign in to continue</h1>"
        + "<p>Your key " + bearer_token(handler) + " is not valid here.</p>" + "<p>padding</p>" * 2000
        + "</body></html>"
    ).encode()
    handler.reply(200, page, content_type="text/html; charset=utf-8")


def mode_echo_secrets(handler):
    lines = ["Unauthorized request to " + handler.path, "bare token: " + bearer_token(handler)]
    lines += [name + ": " + value for name, value in handler.headers.items()]
    handler.reply(401, "\n".join(lines).encode(), content_type="text/plain")


def mode_retry_absurd(handler):
    handler.reply(
        429,
        {"error": {"message": "slow down", "type": "requests"}},
        headers=[("retry-after-ms", "1e400"), ("Retry-After", "99999999999")],
    )


def tool_chunk(calls, finish=None):
    body = {
        "id": "chatcmpl-fault",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fault",
        "choices": [{"index": 0, "delta": {"tool_calls": calls} if calls else {}, "finish_reason": finish}],
    }
    return ("data: " + json.dumps(body) + "\n\n").encode()


def mode_nameless_call(handler):
    handler.start_stream()
    handler.send(tool_chunk([{"index": 0, "id": "call_x", "type": "function", "function": {"arguments": '{"a":'}}]))
    handler.send(tool_chunk([{"index": 0, "function": {"arguments": "1}"}}]))
    handler.send(tool_chunk(None, finish="tool_calls"))
    handler.send(b"data: [DONE]\n\n")


def mode_nameless_call_echo(handler):
    handler.start_stream()
    call_id = "call_" + bearer_token(handler)
    handler.send(tool_chunk([{"index": 0, "id": call_id, "type": "function", "function": {"arguments": "{}"}}]))
    handler.send(tool_chunk(None, finish="tool_calls"))
    handler.send(b"data: [DONE]\n\n")


def mode_two_calls_one_index(handler):
    handler.start_stream()
    messages = json.loads(handler.request_body or b"{}").get("messages", [])
    if any(message.get("role") == "tool" for message in messages):
        handler.send(chunk("Both done."))
        handler.send(chunk(finish="stop"))
    else:
        for call_id, city in (("call_a", "Oslo"), ("call_b", "Paris")):
            handler.send(
                tool_chunk([{"index": 0, "id": call_id, "type": "function", "function": {"name": "weather", "arguments": ""}}])
            )
            handler.send(tool_chunk([{"index": 0, "function": {"arguments": json.dumps({"city": city})}}]))
        handler.send(tool_chunk(None, finish="tool_calls"))
    handler.send(b"data: [DONE]\n\n")


def mode_long_head(handler):
    # /long-head/<bytes>/...: a 200 whose head (status line, header lines and the
    # blank line, each with its CRLF) is exactly <bytes> long, then a short stream.
    # The padding is spread over lines of at most 60,000 bytes (libcurl refuses a
    # single header line over 100 KiB).
    total = int(handler.path.split("/")[2])
    status = b"HTTP/1.0 200 OK\r\n"
    content_type = b"Content-Type: text/event-stream\r\n"
    end = b"\r\n"
    padding = total - len(status) - len(content_type) - len(end)
    count = -(-padding // 60000)
    values = padding - count * len(b"X-Pad-00: \r\n")
    lines = []
    for index in range(count):
        length = values // count + (1 if index < values % count else 0)
        lines.append(b"X-Pad-%02d: " % index + b"p" * length + b"\r\n")
    head = status + content_type + b"".join(lines) + end
    assert len(head) == total, (len(head), total)
    handler.close_connection = True
    handler.send(head)
    handler.send(chunk("Hello") + chunk(finish="stop") + b"data: [DONE]\n\n")


for _name, _mode in list(globals().items()):
    if _name.startswith("mode_") and callable(_mode):
        setattr(Handler, _name, _mode)


def exit_when_stdin_closes():
    # The test stops the server by closing its standard input, which works even
    # when the parent process left SIGTERM blocked in the child's signal mask.
    while sys.stdin.buffer.read(4096):
        pass
    os._exit(0)


LONG_TOKENS = 20000


def mode_long(handler):
    handler.start_stream()
    event = chunk("tok")
    for _ in range(LONG_TOKENS):
        handler.wfile.write(event)
        handler.wfile.flush()
    handler.send(chunk(finish="length"))
    handler.send(chunk(usage={"prompt_tokens": 5, "completion_tokens": LONG_TOKENS, "total_tokens": LONG_TOKENS + 5}))
    handler.send(b"data: [DONE]\n\n")


Handler.mode_long = mode_long


def main():
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    arguments = parser.parse_args()
    if arguments.exit_on_stdin_eof:
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    ThreadingHTTPServer.request_queue_size = 256
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    if arguments.tls:
        import ssl

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*arguments.tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    # A listener that never accepts, its backlog filled: connecting to it hangs.
    blackhole = socket.socket()
    blackhole.bind(("127.0.0.1", 0))
    blackhole.listen(0)
    fillers = []
    for _ in range(4):
        filler = socket.socket()
        filler.setblocking(False)
        filler.connect_ex(blackhole.getsockname())
        fillers.append(filler)
    print(f"PORT {server.server_address[1]} BLACKHOLE {blackhole.getsockname()[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
