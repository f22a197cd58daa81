"""Label selectors evaluated as the API machinery does (matchLabels, In, NotIn, Exists, DoesNotExist)."""

import pytest

from gkecap.components.k8s.label_selector import selects

NAME = "kubernetes.io/metadata.name"


@pytest.mark.parametrize(
    ("selector", "labels", "expected"),
    [
        ({}, {"a": "1"}, True),
        ({"matchLabels": {"team": "a"}}, {"team": "a"}, True),
        ({"matchLabels": {"team": "a"}}, {"team": "b"}, False),
        ({"matchExpressions": [{"key": NAME, "operator": "In", "values": ["x", "y"]}]}, {NAME: "y"}, True),
        ({"matchExpressions": [{"key": NAME, "operator": "In", "values": ["x"]}]}, {NAME: "y"}, False),
        ({"matchExpressions": [{"key": "t", "operator": "NotIn", "values": ["x"]}]}, {}, True),
        ({"matchExpressions": [{"key": "t", "operator": "Exists"}]}, {}, False),
        ({"matchExpressions": [{"key": "t", "operator": "DoesNotExist"}]}, {}, True),
        ({"matchExpressions": [{"key": "t", "operator": "Near"}]}, {}, None),
    ],
)
def test_selects(selector, labels, expected):
    assert selects(selector, labels) is expected


def test_a_key_outside_the_known_labels_cannot_be_decided():
    assert selects({"matchLabels": {"team": "a"}}, {NAME: "x"}, known_keys={NAME}) is None
