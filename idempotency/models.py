from django.db import models


class IdempotentRequest(models.Model):
    """A write sent with a key, and the answer it got: the same key again from the same sender gets this
    answer back and writes nothing (``idempotency.middleware``)."""

    scope = models.CharField(max_length=100, help_text="who sent it: an account, an API token or a session")
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the method, the address and the body")
    status = models.PositiveSmallIntegerField(default=0)
    content_type = models.CharField(max_length=100, blank=True)
    location = models.CharField(max_length=2000, blank=True)
    body = models.BinaryField(default=b"")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="idempotency_one_answer_per_key")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key} → {self.status}"
