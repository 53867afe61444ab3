# rule: iget-boolean on an int field (ART: the get instruction's type must be the field's)
# expect: field of type I accessed as Z
.class public LBadFieldKindMismatch;
.super Ljava/lang/Object;

.field count:I

.method public g()Z
    .registers 2
    iget-boolean v0, v1, LBadFieldKindMismatch;->count:I
    return v0
.end method
