"""`known(value)`: one Output for a plain value the program already knows (a component's exports).

`pulumi.Output.from_input` unwraps a list or dict deeply, making an Output (an asyncio task the runtime
tracks and waits for) per element and per key: thousands for the object names of a large organisation.
A value with no Output inside needs only one.
"""

from typing import TypeVar

import pulumi

T = TypeVar("T")


def known(value: T) -> pulumi.Output[T]:
    """An Output of `value` (plain data, no Outputs inside): known, not secret, no dependencies, as
    `Output.from_input(value)` would give, but one Output however large the value."""
    return pulumi.Output.from_input(None).apply(lambda _: value)
