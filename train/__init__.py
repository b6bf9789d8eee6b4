"""``pagadores_train`` (the repository's ``train/`` folder): training SB3 agents from YAML
configs (``config``, ``train``) and the evaluation library (``evaluate``: seat-rotated
evaluations and tournaments; ``yardstick``: the solver's exact two-player numbers). Needs the
``train`` extra.
"""
