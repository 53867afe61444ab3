# rule: the receiver of invoke-virtual must be a reference
# expect: v0 is the constant 1, expected a reference (the receiver)
.class public LBadIntAsRef;
.super Ljava/lang/Object;

.method public static f()I
    .registers 1
    const/4 v0, 1
    invoke-virtual {v0}, Ljava/lang/Object;->hashCode()I
    move-result v0
    return v0
.end method
