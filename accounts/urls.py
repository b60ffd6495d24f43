from django.urls import path

from accounts.views import language_switch

urlpatterns = [path("language", language_switch, name="language_switch")]
