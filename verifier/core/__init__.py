"""The decision core: what decides a verdict, and nothing that runs Spark or talks to a user.

``check`` (``verifier.core.check``) loads both sides, picks the pair's program kind (``verifier.core.kind``:
RDD programs, DataFrame/SQL programs, RDD scripts, DataFrame scripts) and lets that kind prove, search for
a difference and replay it. The proof methods (``methods/``), candidate validation on the reference
interpreter (``validate``), the result types (``result``) and the searches live here too. The core never
imports ``verifier.runtime`` or ``verifier.interfaces``: replaying on Spark and wording a reason are
handed to it by the facade (``verifier.check``) through ``verifier.core.services``.
"""
