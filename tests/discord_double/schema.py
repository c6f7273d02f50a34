"""Validation against Discord's published OpenAPI 3.1 description: the bot's request bodies (refused with
400 / 50035 at request time), the double's own replies and its gateway payloads (recorded, failing the test).

The spec is looked up at ``<repo>/../shared/discord-api-spec/openapi.json`` (or further up, see ``_find_spec``).
Paths are matched by template (literal segments win over ``{params}``, query strings ignored); a body is checked
against the operation's ``application/json`` schema with Draft 2020-12 and a ``referencing`` registry holding the
whole document, so ``#/components/...`` references resolve into it.

Two deliberate loosenings, where the spec is stricter than Discord and discord.py relies on the difference:
``SnowflakeType`` also admits non-negative integers (discord.py sends e.g. ``recipient_id`` as a number), and
the permission bitfields (``permissions``, ``allow``, ``deny``, ``default_member_permissions``) declared as
integers also admit digit strings (Discord documents and discord.py sends them as strings).
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


def _find_spec(repo: Path) -> Path:
    """``<repo>/../shared/discord-api-spec/openapi.json``, or the first such file further up (a git worktree
    checked out below the repository's parent directory); the nearest candidate when there is none."""
    relative = Path("shared") / "discord-api-spec" / "openapi.json"
    for parent in repo.parents:
        if (parent / relative).is_file():
            return parent / relative
    return repo.parent / relative


SPEC_PATH = _find_spec(Path(__file__).resolve().parents[2])
_URI = "urn:discord-openapi"


@dataclass(frozen=True)
class SchemaViolation:
    """One request body that the spec rejects: where, what the body was and jsonschema's messages."""

    method: str
    path: str
    template: str
    errors: tuple[str, ...]
    body: Any
    what: str = "request"  # request | reply (the double's own answer) | payload (a gateway event)

    def __str__(self) -> str:
        return f"{self.what} {self.method} {self.path} (spec {self.template}): " + "; ".join(self.errors)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class SpecValidator:
    """Validates ``(method, path, body)`` triples; build one with :func:`load_validator`."""

    def __init__(self, spec: dict[str, Any]) -> None:
        import referencing
        from referencing.jsonschema import DRAFT202012

        _loosen(spec)
        resource = referencing.Resource.from_contents(spec, default_specification=DRAFT202012)
        self._registry = referencing.Registry().with_resource(_URI, resource)
        self._routes: list[tuple[int, re.Pattern[str], str, dict[str, Any]]] = []
        for template, item in spec["paths"].items():
            regex = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
            self._routes.append((template.count("{"), regex, template, item))
        self._routes.sort(key=lambda r: r[0])
        self._validators: dict[tuple[str, ...], Any] = {}
        # the bodies found valid, per schema, as canonical JSON: a body sent again (every bot start syncs the same
        # commands, ~0.15 s of CPU to validate) is known valid at once; a body that broke the spec is checked again
        self._valid: set[tuple[tuple[str, ...], str]] = set()

    def match(self, method: str, path: str) -> tuple[str, dict[str, Any]] | None:
        """The spec template and operation object for ``method path`` (path relative to /api/v10)."""
        for _, regex, template, item in self._routes:
            if regex.match(path) and method.lower() in item:
                return template, item[method.lower()]
        return None

    def validate(self, method: str, path: str, body: Any) -> SchemaViolation | None:
        """Return the violation for this request body, or None if it conforms (or the route has no JSON body
        schema)."""
        found = self.match(method, path)
        if found is None:
            return None
        template, op = found
        if "application/json" not in (op.get("requestBody") or {}).get("content", {}):
            return None
        pointer = ("paths", template, method.lower(), "requestBody", "content", "application/json", "schema")
        return self._check(pointer, method, path, template, body)

    def validate_response(self, method: str, path: str, status: int, body: Any) -> SchemaViolation | None:
        """The violation of the double's own JSON answer ``body`` (status ``status``) against the spec, or None."""
        found = self.match(method, path)
        if found is None:
            return None
        template, op = found
        responses = op.get("responses") or {}
        answer = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX")
        if not isinstance(answer, dict) or "$ref" in answer:
            return None  # shared error responses: their bodies are checked by the error helpers' shape
        if "application/json" not in (answer.get("content") or {}):
            return None
        key = str(status) if str(status) in responses else f"{str(status)[0]}XX"
        pointer = ("paths", template, method.lower(), "responses", key, "content", "application/json", "schema")
        return self._check(pointer, method, path, template, body, what="reply")

    def validate_object(self, schema_name: str, data: Any, where: str) -> SchemaViolation | None:
        """The violation of ``data`` against ``components/schemas/<schema_name>`` (e.g. a gateway payload)."""
        return self._check(("components", "schemas", schema_name), "GATEWAY", where, schema_name, data,
                           what="payload")

    def _check(self, pointer: tuple[str, ...], method: str, path: str, template: str, body: Any,
               what: str = "request") -> SchemaViolation | None:
        from jsonschema import Draft202012Validator

        validator = self._validators.get(pointer)
        if validator is None:
            ref = "/".join(_escape(t) for t in pointer)
            validator = Draft202012Validator({"$ref": f"{_URI}#/{ref}"}, registry=self._registry)
            self._validators[pointer] = validator
        try:
            known = (pointer, json.dumps(body, sort_keys=True, separators=(",", ":")))
        except (TypeError, ValueError):  # not JSON (a test's own odd body): validated every time
            known = None
        if known is not None and known in self._valid:
            return None
        errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
        if not errors:
            if known is not None:
                self._valid.add(known)
            return None
        messages = tuple(f"{'/'.join(map(str, e.absolute_path)) or '<body>'}: {_best(e)}" for e in errors[:5])
        return SchemaViolation(method.upper(), path, template, messages, body, what)

    @staticmethod
    def error_tree(violation: SchemaViolation) -> dict[str, Any]:
        """Discord's nested ``errors`` object for a request violation."""
        tree: dict[str, Any] = {}
        for message in violation.errors:
            where, _, text = message.partition(": ")
            node = tree
            for key in [] if where == "<body>" else where.split("/"):
                node = node.setdefault(key, {})
            node.setdefault("_errors", []).append({"code": "BASE_TYPE_INVALID", "message": text})
        return tree


_BITFIELDS = {"permissions", "allow", "deny", "default_member_permissions"}


def _loosen(spec: dict[str, Any]) -> None:
    """Apply the two loosenings described in the module docstring, in place."""
    schemas = spec.get("components", {}).get("schemas", {})
    if "SnowflakeType" in schemas:
        schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}
    stack: list[Any] = [spec]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            for name, prop in (node.get("properties") or {}).items():
                kinds = prop.get("type") if isinstance(prop, dict) else None
                if name in _BITFIELDS and "integer" in (kinds if isinstance(kinds, list) else [kinds]):
                    node["properties"][name] = {"anyOf": [prop, {"type": "string", "pattern": "^[0-9]+$"}]}
            stack.extend(v for k, v in node.items() if k != "properties")
            stack.extend((node.get("properties") or {}).values())


def _best(error: Any) -> str:
    from jsonschema.exceptions import best_match

    if error.context:
        return best_match(error.context).message[:300]
    return str(error.message)[:300]


#: for tests that need the spec: skip (saying why) when it is missing, except under CI (``CI=true``), where the
#: test runs and fails
needs_spec = pytest.mark.skipif(not SPEC_PATH.is_file() and os.environ.get("CI", "").lower() != "true",
                                reason=f"no Discord OpenAPI spec at {SPEC_PATH}")


@functools.cache
def load_validator(path: Path = SPEC_PATH) -> SpecValidator | None:
    """The validator for the spec file at ``path`` (cached per process), or None when the file is missing."""
    if not path.is_file():
        return None
    return SpecValidator(json.loads(path.read_text(encoding="utf-8")))
