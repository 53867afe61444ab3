# rule: a register holding an int on one path and a reference on the other is Conflict
# at the join; reading it is an error
# expect: v0 is conflict
.class public LBadConflictRead;
.super Ljava/lang/Object;

.method public static f(Z)I
    .registers 2
    if-eqz v1, :a
    const-string v0, "x"
    goto :b
    :a
    const/16 v0, 7
    :b
    add-int/lit8 v0, v0, 1
    return v0
.end method
