"""What every app's REST API shares: the base view (JSON in and out, each view asking its own app's policy),
paging, the error objects and the schema's pieces that describe them. The views that read an event or a
table, and the API's authentication (tokens, table cards), are the tournament's
(``tournament.api_v1.base``); the one exception handler is ``config.api``'s."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions, parsers, permissions, renderers, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.views import APIView

from taikai.errors import TaikaiError
from taikai.text import MAX_LIST_ITEMS, longest_list_path


class JSONParser(parsers.JSONParser):
    """JSON bodies; a body nested too deep to read is bad input (400), like any other unreadable one."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise exceptions.ParseError("JSON parse error - nested too deeply") from exc
        where = longest_list_path(data)
        if where is not None:
            raise exceptions.ParseError(f"JSON parse error - {where} holds more than {MAX_LIST_ITEMS} items")
        return data


# The base of the API's views: JSON only; anyone may call, each view asks its app's policy itself. (A
# comment, not a docstring: the schema would show a docstring as every operation's description.)
class ApiView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = [renderers.JSONRenderer]
    parser_classes = [JSONParser]
    # the throttles are the site's (REST_FRAMEWORK's DEFAULT_THROTTLE_CLASSES: address, account, token)


def valid(serializer_class, request, **kwargs) -> dict:
    """The body, checked: 400 naming the first field at fault."""
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# --- Pages ----------------------------------------------------------------------------------------


class Pages(PageNumberPagination):
    """``?page=`` (from 1) and ``?page_size=`` (up to 500; 100 by default)."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request):
        """A ``page_size`` that is not a whole number from 1 to 500 is refused (400), not replaced."""
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= self.max_page_size:
            raise TaikaiError(
                "invalid_parameter",
                _("page_size is a whole number from 1 to %(max)s") % {"max": self.max_page_size},
                field="page_size",
            )
        return int(raw)


def paged(view, queryset, serializer_class, **context):
    """One page of ``queryset`` (``Pages``), each row given by ``serializer_class``."""
    pages = Pages()
    page = pages.paginate_queryset(queryset, view.request, view=view)
    return pages.get_paginated_response(serializer_class(page, many=True, context=context).data)


def page_of(serializer_class) -> type[serializers.Serializer]:
    """The page a list answers with: ``count``, the ``next`` and ``previous`` pages' URLs, ``results``."""
    name = serializer_class.__name__.removesuffix("Serializer")
    fields = {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": serializer_class(many=True),
    }
    return type(f"{name}Page", (serializers.Serializer,), fields)


PAGE = OpenApiParameter("page", OpenApiTypes.INT, description="The page, from 1.")
PAGE_SIZE = OpenApiParameter(
    "page_size",
    {"type": "integer", "minimum": 1, "maximum": 500},
    description="Rows per page, 1 to 500 (100 when not given); other values are a 400.",
)


# --- Errors ---------------------------------------------------------------------------------------


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable: e.g. invalid_input, forbidden, not_found, version_conflict.")
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True, help_text="The input at fault, when one is.")


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


ERRORS = {400: ErrorSerializer, 401: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}
READ_ERRORS = {401: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}
PAGED_READ_ERRORS = {400: ErrorSerializer, **READ_ERRORS}  # a page_size out of range
