"""The work registration queues: its messages, sent by e-mail after the commit that wrote them."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.urls import reverse

from registration.models import SignUpMessage
from registration.services import SEND_MESSAGE, message_send, private_token


@shared_task(name=SEND_MESSAGE, acks_late=True, soft_time_limit=50, time_limit=60)
def send_message_task(message_id: int, site: str = "") -> bool:
    """Send a kept message with the private link, on the site's address where the message was written
    (``registration.site``; ``SITE_URL`` for one queued without it)."""
    message = SignUpMessage.objects.select_related("sign_up").filter(pk=message_id).first()
    if message is None:
        return False
    link = (site or settings.SITE_URL).rstrip("/") + reverse(
        "registration:private", args=[private_token(message.sign_up)]
    )
    return message_send(message_id=message_id, link=link)
