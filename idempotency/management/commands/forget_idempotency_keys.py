from django.core.management.base import BaseCommand

from idempotency.services import requests_forget_old


class Command(BaseCommand):
    help = "Forget the keys of repeated writes older than IDEMPOTENCY_KEEP_DAYS (7 days): run it daily."

    def handle(self, *args, **options):
        self.stdout.write(f"{requests_forget_old()}")
