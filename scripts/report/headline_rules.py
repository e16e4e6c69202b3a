"""The verdicts a results page gives the paper's headline claims, the rule the experiments share
for a claimed change (ours must go the same way as the study's and reach half its size), and
the list of checked headlines an experiment's Headlines class builds on."""

MET, NOT_MET, NO_DATA = "met", "not met", "no data"
NO_RUNS = "the runs it compares did not pass or were not in the sweep"  # the reason of NO_DATA
HALF = 0.5


def verdict(ok):
    """MET, NOT_MET, or NO_DATA for None (a comparison without its runs)."""
    return NO_DATA if ok is None else (MET if ok else NOT_MET)


def change_met(ours, study):
    """Met when ours has the study's sign and at least half its size (None: no data)."""
    if ours is None:
        return None
    return ours * study > 0 and abs(ours) >= HALF * abs(study)


class Row:
    """One checked headline: its group (the page's paragraph), the result as the study words it,
    the study's value and ours, the verdict and its reason."""

    def __init__(self, group, result, study, ours, verdict, reason):
        self.group, self.result, self.study, self.ours = group, result, study, ours
        self.verdict, self.reason = verdict, reason


class HeadlineList:
    """The base of an experiment's Headlines: the study `s` the rules read, and `rows`, the
    headlines checked so far (each with `group` and `verdict`)."""

    def __init__(self, study):
        self.s = study
        self.rows = []

    def not_met(self, group):
        return [r for r in self.rows if r.group == group and r.verdict == NOT_MET]
