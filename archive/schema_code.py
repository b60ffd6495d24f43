"""The archive's JSON Schema compiled to plain Python (``schema_test``): whether a document follows it, yes or no.

An archive of 10,000 players holds about a million values. A general validator builds an error for each
``oneOf`` branch a value does not take (every ``null`` of an ``…_or_null`` field), and walks a property
list per object; this compiles the schema once into one function per object or list of the schema, whose
other checks are expressions written inline: a type, a range, an ``enum`` set, a pattern, a format. It says
only whether the document follows the schema; what is wrong and where is jsonschema's to say
(``archive.schema``), on the files this refuses.

The keywords follow draft 2020-12 as jsonschema reads them (an integer may be written ``2.0``; ``true`` is
not ``1``), but for ``pattern``: a ``$`` that ends a pattern ends the text (no newline after it), stricter
than jsonschema's search, as fastjsonschema (used here before) read it. A keyword the compiler does not know
refuses to compile (``SchemaUnsupported``): a schema that grows one is never checked in part.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# what a schema may say that checks nothing
ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "examples", "default"})
# what needs a function of its own: a walk through an object's properties or a list's items
STRUCTURE = frozenset({"properties", "required", "additionalProperties", "items", "minItems", "maxItems"})
INLINE = frozenset(
    {"type", "enum", "const", "minimum", "maximum", "minLength", "maxLength", "pattern", "format", "oneOf", "anyOf"}
)
_MISSING = object()
NULL = {"type": "null"}


class SchemaUnsupported(ValueError):
    """The schema uses a keyword (or a form of one) this compiler does not check."""


def _is_integer(value) -> bool:
    """Draft 2020-12's integer: a number with no fraction (``2.0`` too), never ``true`` or ``false``."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _json_equal(value, expected) -> bool:
    """Equal as JSON values: ``true`` is not ``1``, ``1.0`` is ``1``."""
    if isinstance(value, bool) or isinstance(expected, bool):
        return type(value) is type(expected) and value == expected
    if isinstance(value, list) and isinstance(expected, list):
        return len(value) == len(expected) and all(map(_json_equal, value, expected))
    if isinstance(value, dict) and isinstance(expected, dict):
        return value.keys() == expected.keys() and all(_json_equal(value[k], expected[k]) for k in value)
    return type(value) is not bool and value == expected


_TYPE_TESTS = {
    "object": "isinstance({v}, dict)",
    "array": "isinstance({v}, list)",
    "string": "isinstance({v}, str)",
    "integer": "({v}.__class__ is int or _is_integer({v}))",
    "number": "({v}.__class__ is int or {v}.__class__ is float or _is_number({v}))",
    "boolean": "({v} is True or {v} is False)",
    "null": "{v} is None",
}


class _Compiler:
    """Writes the module's source: ``lines`` of functions, ``names`` the values they read (sets, patterns)."""

    def __init__(self, root: dict, formats: dict[str, Callable[[object], bool]]):
        self.root, self.formats = root, formats
        self.lines: list[str] = []
        self.names: dict[str, object] = {
            "_MISSING": _MISSING,
            "_is_integer": _is_integer,
            "_is_number": _is_number,
            "_json_equal": _json_equal,
        }
        self.functions: dict[int, str] = {}  # id of a schema dict -> the name of its function
        self.pending: list[tuple[str, dict]] = []

    def constant(self, value, prefix: str) -> str:
        name = f"_{prefix}{len(self.names)}"
        self.names[name] = value
        return name

    def resolve(self, ref: str) -> dict:
        if not ref.startswith("#/"):
            raise SchemaUnsupported(f"$ref {ref!r}: only references inside the schema")
        target = self.root
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        return target

    def function(self, schema: dict) -> str:
        """The name of ``schema``'s function, written later (``compile``): one per schema, shared by its refs."""
        name = self.functions.get(id(schema))
        if name is None:
            name = self.functions[id(schema)] = f"_test{len(self.functions)}"
            self.pending.append((name, schema))
        return name

    def test(self, schema, v: str) -> str:
        """A Python expression that is true when the value named ``v`` follows ``schema``."""
        if schema is True or schema == {}:
            return "True"
        if schema is False:
            return "False"
        if schema.keys() & STRUCTURE:
            return f"{self.function(schema)}({v})"
        unknown = set(schema) - ANNOTATIONS - INLINE - {"$ref"}
        if unknown:
            raise SchemaUnsupported(f"keywords {sorted(unknown)}")
        parts = [self.test(self.resolve(schema["$ref"]), v)] if "$ref" in schema else []
        parts += self.scalar_tests(schema, v)
        return "(" + " and ".join(parts) + ")" if parts else "True"

    def scalar_tests(self, schema: dict, v: str) -> list[str]:
        parts = []
        types = schema.get("type")
        types = [types] if isinstance(types, str) else types
        if types is not None:
            parts.append("(" + " or ".join(_TYPE_TESTS[t].format(v=v) for t in types) + ")")
        if "enum" in schema:
            choices = schema["enum"]
            if all(isinstance(c, str) for c in choices):
                parts.append(f"(isinstance({v}, str) and {v} in {self.constant(frozenset(choices), 'enum')})")
            else:
                parts.append(f"any(_json_equal({v}, c) for c in {self.constant(tuple(choices), 'enum')})")
        if "const" in schema:
            parts.append(f"_json_equal({v}, {self.constant(schema['const'], 'const')})")
        numeric = types is not None and set(types) <= {"integer", "number"}
        for keyword, operator in (("minimum", ">="), ("maximum", "<=")):
            if keyword in schema:
                bound = f"{v} {operator} {schema[keyword]!r}"
                parts.append(f"({bound})" if numeric else f"(not _is_number({v}) or {bound})")
        text = [self.text_test(schema, keyword, v) for keyword in ("minLength", "maxLength", "pattern", "format")]
        text = [part for part in text if part]
        if text:
            both = " and ".join(text)
            parts.append(f"({both})" if types == ["string"] else f"(not isinstance({v}, str) or ({both}))")
        for keyword, needed in (("oneOf", "== 1"), ("anyOf", ">= 1")):
            if keyword in schema:
                other = self.other_than_null(schema[keyword])
                if other is not None:  # a value or null: at most one branch holds, so either will do
                    parts.append(f"({v} is None or {self.test(other, v)})")
                    continue
                branches = " + ".join(f"bool({self.test(branch, v)})" for branch in schema[keyword])
                parts.append(f"(({branches}) {needed})")
        return parts

    def other_than_null(self, branches: list):
        """Of two branches, ``{"type": "null"}`` and one whose type refuses null, that one; else None."""
        if len(branches) != 2 or NULL not in branches:
            return None
        other = branches[1 - branches.index(NULL)]
        return other if self.refuses_null(other) else None

    def refuses_null(self, schema) -> bool:
        """Whether ``schema`` refuses null by its type, or by that of the schema it refers to."""
        if not isinstance(schema, dict):
            return False
        types = schema.get("type")
        if types is not None and "null" not in ([types] if isinstance(types, str) else types):
            return True
        return "$ref" in schema and self.refuses_null(self.resolve(schema["$ref"]))

    def text_test(self, schema: dict, keyword: str, v: str) -> str:
        if keyword not in schema:
            return ""
        value = schema[keyword]
        if keyword == "minLength":
            return f"len({v}) >= {value!r}"
        if keyword == "maxLength":
            return f"len({v}) <= {value!r}"
        if keyword == "pattern":
            pattern = re.sub(r"(?<!\\)\$$", r"\\Z", value)  # the text's end, not before a last newline
            return f"{self.constant(re.compile(pattern), 'pattern')}.search({v}) is not None"
        check = self.formats.get(value)  # a format not named here is an annotation, as jsonschema reads it
        return f"{self.constant(check, 'format')}({v})" if check else ""

    def body(self, name: str, schema: dict) -> None:
        """``schema``'s function: its inline tests, then, for an object or a list, its properties or items."""
        unknown = set(schema) - ANNOTATIONS - INLINE - STRUCTURE - {"$ref"}
        if unknown:
            raise SchemaUnsupported(f"keywords {sorted(unknown)}")
        lines = [f"def {name}(d):"]
        inline = {key: value for key, value in schema.items() if key not in STRUCTURE}
        if inline.keys() - ANNOTATIONS:
            lines.append(f"    if not {self.test(inline, 'd')}:\n        return False")
        if schema.keys() & {"properties", "required", "additionalProperties"}:
            lines += ["    if isinstance(d, dict):", *self.object_lines(schema)]
        if schema.keys() & {"items", "minItems", "maxItems"}:
            lines += ["    if isinstance(d, list):", *self.array_lines(schema)]
        lines.append("    return True")
        self.lines.append("\n".join(lines))

    def object_lines(self, schema: dict) -> list[str]:
        properties = schema.get("properties", {})
        required = list(schema.get("required", []))
        lines = []
        if required:
            lines.append(f"        if not d.keys() >= {self.constant(frozenset(required), 'required')}:")
            lines.append("            return False")
        extra = schema.get("additionalProperties", True)
        if extra is False:
            lines.append(f"        if not d.keys() <= {self.constant(frozenset(properties), 'known')}:")
            lines.append("            return False")
        elif extra is not True:
            raise SchemaUnsupported("additionalProperties other than true or false")
        for key, subschema in properties.items():
            test = self.test(subschema, "v")
            if test == "True":
                continue
            if key in required:
                lines.append(f"        v = d[{key!r}]")
                lines.append(f"        if not {test}:")
            else:
                lines.append(f"        v = d.get({key!r}, _MISSING)")
                lines.append(f"        if v is not _MISSING and not {test}:")
            lines.append("            return False")
        return lines

    def array_lines(self, schema: dict) -> list[str]:
        lines = []
        if "minItems" in schema:
            lines += [f"        if len(d) < {schema['minItems']!r}:", "            return False"]
        if "maxItems" in schema:
            lines += [f"        if len(d) > {schema['maxItems']!r}:", "            return False"]
        items = schema.get("items", True)
        if not isinstance(items, dict | bool):
            raise SchemaUnsupported("items as a list (prefixItems)")
        test = self.test(items, "x")
        if test != "True":
            lines += ["        for x in d:", f"            if not {test}:", "                return False"]
        return lines

    def compile(self) -> Callable[[object], bool]:
        root = self.function(self.root)
        while self.pending:
            self.body(*self.pending.pop())
        namespace = dict(self.names)
        exec(
            compile("\n\n".join(self.lines), "<archive schema>", "exec"), namespace
        )  # the source is written above, from the schema
        return namespace[root]


def schema_test(schema: dict, formats: dict[str, Callable[[object], bool]]) -> Callable[[object], bool]:
    """``schema`` compiled to one function: ``test(document)`` is whether ``document`` follows it. ``formats``:
    each format checked (its test answers False, never raises), the others read as annotations."""
    return _Compiler(schema, formats).compile()
