"""Train: the tie-rule choice and the textbook worked example (no Streamlit calls here).

The default rule is minbpe's; the other is the lexicographic rule proposed for minbpe,
with which "aaabdaaabac" merges as Wikipedia's example does (aa, then ab, then aaab):

    >>> TIE_RULE_LABELS["lowest-ids"]
    'Lowest ids (the textbook example)'
    >>> TEXTBOOK_EXAMPLE.sample, TEXTBOOK_EXAMPLE.tie_rule.value
    ('aaabdaaabac', 'lowest-ids')
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.training.tie_rules import DEFAULT_TIE_RULE, TIE_RULE_NAMES, TieRule

TIE_RULE_CHOICES = TIE_RULE_NAMES
DEFAULT_TIE_RULE_NAME = DEFAULT_TIE_RULE.value
TIE_RULE_LABELS = {
    TieRule.FIRST_OCCURRENCE.value: "First occurrence (minbpe's, the default)",
    TieRule.LOWEST_IDS.value: "Lowest ids (the textbook example)",
}
TIE_RULE_HELP = "When several pairs share the highest count, which one is merged. " + " ".join(
    f"**{TIE_RULE_LABELS[rule.value]}**: {rule.describe()}" for rule in TieRule
)


@dataclass(frozen=True)
class TieRuleExample:
    """A worked example trained with a tie rule of its own: the Train page's button."""

    key: str  # the button's key ends with it: train_example_<key>
    sample: str  # the bundled sample it trains (ui/session/samples.py)
    tie_rule: TieRule
    label: str
    caption: str


TEXTBOOK_EXAMPLE = TieRuleExample(
    key="aaabdaaabac_textbook",
    sample="aaabdaaabac",
    tie_rule=TieRule.LOWEST_IDS,
    label="aaabdaaabac, textbook tie rule",
    caption="Wikipedia's example: aa, then ab, then aaab; ties go to the lowest ids",
)


def tie_rule_note(tie_rule: TieRule | str) -> str:
    """A caption for the merge log: how its ties (⚖) were broken.

    >>> tie_rule_note("lowest-ids")
    'Ties (⚖): the tie went to the pair with the lowest ids (tie rule lowest-ids).'
    """
    rule = TieRule(tie_rule)
    default = " (minbpe's, the default)" if rule is DEFAULT_TIE_RULE else ""
    return f"Ties (⚖): the tie went to {rule.winner_phrase} (tie rule {rule.value}{default})."
