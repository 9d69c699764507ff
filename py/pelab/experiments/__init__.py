"""
# Experiments: a tiny Transformer trained in the page

Stateful and slow next to the rest of pelab: models trained a slice of steps at a time.

    tiny_transformer       a tiny Transformer in numpy, its forward pass and its gradients
    position_tasks         tasks that need position, as seeded batches (copy, reverse)
    training               Adam, the `Trainer`, and the training demo's `TrainingSession`
    table_structure        what a learned table has learned: band contrast, components, sinusoids
    session                the one session interface: advance(n), summary(), done
    sliced                 models trained one after another in slices: `SlicedExperiment`
    length_generalisation  train on lengths up to L, test up to 4L, for every scheme
    stretch_experiment     RoPE trained at L, stretched to 2L and 4L by each method
"""
