"""
# A model trained a slice at a time: the one session interface

The page trains in slices so that it stays live: it asks for a few steps, shows the result,
and asks again. The training demo's model (`pelab.experiments.training.TrainingSession`) and
both experiments (`pelab.experiments.length_generalisation.LengthExperiment`,
`pelab.experiments.stretch_experiment.StretchExperiment`) answer the same three things:

    session.advance(n)    run at most n more training steps; returns how many ran
    session.summary()     the progress and results so far, as a dict of plain values and
                          numpy arrays (the browser's entry points flatten the arrays)
    session.done          whether there is nothing left to run

and count their steps in `session.steps_done`.
"""


class Session:
    """What every sliced session offers; a subclass defines `advance`, `summary` and `done`."""

    steps_done = 0

    @property
    def done(self):
        """Whether there is nothing left to run."""
        raise NotImplementedError

    def advance(self, n):
        """Run at most `n` more training steps and return how many ran."""
        raise NotImplementedError

    def summary(self):
        """The progress and results so far: a dict of plain values and numpy arrays."""
        raise NotImplementedError
