#!/usr/bin/python3
"""A private SMTP sink for Switchyard's mail tests (tests/support/smtpserver.cpp starts it).

Run with Debian's /usr/bin/python3: it needs python3-aiosmtpd (1.4), which the `python3` on a
developer's PATH (pyenv) cannot see.

Listens on 127.0.0.1:PORT (or a Unix socket), plain, SMTPS (implicit TLS) or with STARTTLS, with
optional AUTH PLAIN/LOGIN. Every message is kept in DIR as msg-N.eml (the bytes received) and
msg-N.json: the envelope, and the headers and parts as Python's `email` package decodes them —
an independent decoder of what Switchyard encoded. Writes DIR/ready once it listens.

Failure modes: --refuse-rcpt SUBSTRING (550 for a recipient containing it), --drop-after N (the
connection that brings message N+1 is closed without an answer, once), and SIGSTOP from the
fixture (a server that hangs with its connections open).
"""

import argparse
import asyncio
import email
import email.policy
import json
import os
import signal
import ssl
import sys
import threading

from aiosmtpd.controller import Controller, UnixSocketController
from aiosmtpd.smtp import AuthResult, LoginPassword


class Sink:
    def __init__(self, directory, refuse, drop_after):
        self.directory = directory
        self.refuse = refuse
        self.drop_after = drop_after
        self.dropped = False
        self.count = 0
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        for pattern in self.refuse:
            if pattern in address:
                return "550 5.1.1 <%s>: Recipient address rejected: User unknown in local recipient table" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        with self.lock:
            drop = self.drop_after >= 0 and self.count >= self.drop_after and not self.dropped
            if drop:
                self.dropped = True
        if drop:
            # As a server that crashes mid-conversation: no answer, the connection just ends.
            server.transport.abort()
            return None
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            n = self.count
        raw = envelope.original_content or envelope.content
        base = os.path.join(self.directory, "msg-%d" % n)
        with open(base + ".eml", "wb") as f:
            f.write(raw)
        message = email.message_from_bytes(raw, policy=email.policy.default)
        headers = {}
        for name, value in message.items():
            headers.setdefault(name, []).append(str(value))
        parts = {}
        for part in message.walk():
            if part.is_multipart():
                continue
            parts.setdefault(part.get_content_type(), part.get_content())
        record = {
            "n": n,
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "auth_user": session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None,
            "tls": server.transport.get_extra_info("ssl_object") is not None,
            "peer": str(session.peer),
            "headers": headers,
            "subject": str(message["subject"] or ""),
            "content_type": message.get_content_type(),
            "parts": parts,
            "defects": [str(d) for d in message.defects],
        }
        tmp = base + ".json.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(record, f, ensure_ascii=False, indent=1)
        os.rename(tmp, base + ".json")  # the fixture sees whole files only
        return "250 2.0.0 Ok: queued as %d" % n


def authenticator(credentials):
    def check(server, session, envelope, mechanism, auth_data):
        if not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        ok = (auth_data.login.decode(), auth_data.password.decode()) == credentials
        # handled=False: aiosmtpd answers the failure itself (535); auth_data: kept in the session.
        return AuthResult(success=ok, handled=False, auth_data=auth_data)
    return check


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--unix", default="")
    parser.add_argument("--mode", choices=["plain", "smtps", "starttls"], default="plain")
    parser.add_argument("--cert", default="")
    parser.add_argument("--key", default="")
    parser.add_argument("--auth", default="", help="user:password; AUTH required")
    parser.add_argument("--refuse-rcpt", action="append", default=[])
    parser.add_argument("--drop-after", type=int, default=-1)
    args = parser.parse_args()

    sink = Sink(args.dir, args.refuse_rcpt, args.drop_after)
    params = {"enable_SMTPUTF8": True}
    if args.auth:
        user, _, password = args.auth.partition(":")
        params.update(authenticator=authenticator((user, password)), auth_required=True, auth_require_tls=False)
    context = None
    if args.mode != "plain":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
    if args.mode == "starttls":
        params.update(tls_context=context, require_starttls=True)

    if args.unix:
        controller = UnixSocketController(sink, unix_socket=args.unix, server_hostname="sink.test", **params)
    else:
        controller = Controller(sink, hostname="127.0.0.1", port=args.port,
                                ssl_context=context if args.mode == "smtps" else None,
                                server_hostname="sink.test", **params)
    controller.start()
    with open(os.path.join(args.dir, "ready.tmp"), "w") as f:
        f.write("ready\n")
    os.rename(os.path.join(args.dir, "ready.tmp"), os.path.join(args.dir, "ready"))

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.wait(0.5):
        pass
    controller.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
