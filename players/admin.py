from django import forms
from django.contrib import admin, messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from .csv_import import KNOWN_COLUMNS, CsvImportError, players_import_csv
from .models import Player


class PlayerCsvForm(forms.Form):
    csv_file = forms.FileField(
        label="CSV file",
        help_text=f"UTF-8, header row with: {', '.join(KNOWN_COLUMNS)} (display_name required).",
    )


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "family_name", "given_name", "club", "country", "external_id")
    search_fields = ("display_name", "family_name", "given_name", "reading", "club", "external_id")
    list_filter = ("country", "club")
    raw_id_fields = ("user",)
    change_list_template = "admin/players/player/change_list.html"

    def get_urls(self):
        return [
            path(
                "import-csv/",
                self.admin_site.admin_view(self.import_csv_view),
                name="players_player_import_csv",
            ),
            *super().get_urls(),
        ]

    def import_csv_view(self, request):
        if not self.has_add_permission(request):
            messages.error(request, "You may not add players.")
            return redirect("admin:players_player_changelist")
        problems = []
        form = PlayerCsvForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                created = players_import_csv(data=form.cleaned_data["csv_file"].read())
            except CsvImportError as exc:
                problems = exc.problems
            else:
                messages.success(request, f"Imported {len(created)} player(s).")
                return redirect("admin:players_player_changelist")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Import players from CSV",
            "form": form,
            "problems": problems,
        }
        return TemplateResponse(
            request, "admin/players/player/import_csv.html", context, status=400 if problems else 200
        )
