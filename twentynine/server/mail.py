"""Outgoing mail: SMTP (aiosmtplib) when configured; otherwise the log, plus an in-memory outbox
that development mode shows at /dev/outbox to loopback clients only."""

from __future__ import annotations

import collections
import datetime as dt
import logging
from dataclasses import dataclass
from email.message import EmailMessage

import aiosmtplib

from .settings import Settings

log = logging.getLogger("twentynine.mail")


@dataclass(frozen=True)
class SentMail:
    to: str
    subject: str
    body: str
    at: dt.datetime


class Mailer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.outbox: collections.deque[SentMail] = collections.deque(maxlen=100)

    async def send(self, to: str, subject: str, body: str) -> None:
        s = self.settings
        if not s.mail_configured:
            log.info("mail to %s (no SMTP configured): %s\n%s", to, subject, body)
            self.outbox.appendleft(SentMail(to, subject, body, dt.datetime.now(dt.UTC)))
            return
        msg = EmailMessage()
        msg["From"] = s.mail_from
        msg["To"] = to
        msg["Subject"] = subject
        msg.set_content(body)
        await aiosmtplib.send(
            msg,
            hostname=s.smtp_host,
            port=s.smtp_port,
            username=s.smtp_user or None,
            password=s.smtp_password or None,
            start_tls=s.smtp_starttls and s.smtp_port != 465,
            use_tls=s.smtp_port == 465,
            timeout=20,
        )
        log.info("mail sent to %s: %s", to, subject)
