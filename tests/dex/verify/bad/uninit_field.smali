# rule: an object from new-instance may not be used before <init> (field access)
# expect: v0 is uninitialized Ljava/lang/StringBuilder; (new-instance at 0), expected an initialized reference (field access)
.class public LBadUninitField;
.super Ljava/lang/Object;

.method public static f()I
    .registers 1
    new-instance v0, Ljava/lang/StringBuilder;
    iget v0, v0, Ljava/lang/StringBuilder;->count:I
    return v0
.end method
