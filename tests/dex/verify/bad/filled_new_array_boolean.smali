# rule: filled-new-array builds int or reference arrays only (ART's CheckNewArray: wide
# elements are a hard failure, other primitives throw InternalError at run time)
# expect: filled-new-array of [Z (only int and reference elements)
.class public LBadFilledNewArrayBoolean;
.super Ljava/lang/Object;

.method public static f()Ljava/lang/Object;
    .registers 1
    const/4 v0, 1
    filled-new-array {v0}, [Z
    move-result-object v0
    return-object v0
.end method
