"""The program kinds ``verifier.core.check`` dispatches to, one module each (``verifier.core.kind``):
RDD programs (``rdd``), DataFrame/SQL programs (``relational``), whole RDD scripts (``rdd_script``) and
whole DataFrame scripts (``df_script``). A new kind is one more module here and one more entry in
``verifier.core.check.KINDS``.
"""
