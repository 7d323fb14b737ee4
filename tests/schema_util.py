"""Validation of sparkeq's JSON against the committed schema (docs/sparkeq.schema.json).

Every test that reads ``--json`` output (check, hook, batch) or ``Result.to_json()`` passes it through
here, so the documented contract and the program cannot drift apart unnoticed."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "sparkeq.schema.json"


@functools.cache
def _validator(definition: str) -> Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(schema)
    if definition != "result":
        schema = {**schema, "$ref": f"#/$defs/{definition}"}
    return Draft202012Validator(schema)


def validate(obj: Any, definition: str = "result") -> Any:
    """Raise ``jsonschema.ValidationError`` unless ``obj`` is a valid ``definition`` (result,
    hook_report, batch_line); return ``obj``."""
    _validator(definition).validate(obj)
    return obj
