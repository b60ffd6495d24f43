from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext_lazy as _


def remember_language_at_sign_in(sender, request, user, **kwargs) -> None:
    """An account's language follows it from device to device: read once, at sign-in, into the session."""
    from accounts.services import account_language

    language = account_language(user=user)
    if language and request is not None and hasattr(request, "session"):
        request.session["account_language"] = language


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        user_logged_in.connect(remember_language_at_sign_in, dispatch_uid="accounts_language_at_sign_in")
