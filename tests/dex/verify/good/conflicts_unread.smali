# A register that is an int on one path and a reference on the other is Conflict at the
# join: legal as long as it is not read; move of a conflict is legal too (ART: "Allow
# conflicts to be copied around"). Zero is both null and 0.
.class public LGoodConflictsUnread;
.super Ljava/lang/Object;

.method public static f(Z)I
    .registers 4
    if-eqz v3, :a
    const-string v0, "x"
    goto :b
    :a
    const/16 v0, 7
    :b
    move v1, v0
    const/4 v0, 0
    if-eqz v0, :c
    invoke-virtual {v0}, Ljava/lang/Object;->hashCode()I
    :c
    const/4 v1, 0
    aget-object v2, v1, v0
    add-int/lit8 v0, v0, 1
    return v0
.end method
