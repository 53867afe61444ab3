# rule: if-eqz takes an int-like or reference register, not a float
# expect: v0 is float, expected int or a reference
.class public LBadIfEqzFloat;
.super Ljava/lang/Object;

.method public static f(F)V
    .registers 1
    if-eqz v0, :x
    :x
    return-void
.end method
