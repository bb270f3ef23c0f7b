"""The JSON Schema of certificates (exactdp.certificate.schema): schema/certificate.schema.json is the generated one."""

import json
import os

import pytest

from exactdp.certificate.schema import json_schema


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def schema():
    return json_schema()


def test_schema_file_is_current(schema):
    with open(os.path.join(ROOT, "schema", "certificate.schema.json"), encoding="utf-8") as f:
        assert json.load(f) == schema, "stale schema: regenerate schema/certificate.schema.json (see its test)"
