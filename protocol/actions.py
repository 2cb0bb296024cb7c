"""Converting between the wire's action form and the engine's actions.

The wire form is the record's action form (``docs/records.md``), so both directions
are exact: ``to_engine(from_engine(a)) == a``.
"""

from __future__ import annotations

from protocol.messages import ActionForm, PlaceAction, ScoutAction
from waddle import SCOUT, Action, Place


def to_engine(form: ActionForm) -> Action:
    """The engine action for a decoded wire action."""
    if isinstance(form, PlaceAction):
        return Place((form.hex[0], form.hex[1]), form.double)
    return SCOUT


def from_engine(action: Action) -> ActionForm:
    """The wire form of an engine action."""
    if isinstance(action, Place):
        return PlaceAction(hex=action.hex, double=action.double)
    return ScoutAction()
