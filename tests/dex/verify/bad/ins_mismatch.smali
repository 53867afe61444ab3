# rule: ins_size equals the proto's argument words (+1 for this); patched, as smali
# computes it
# patch: ins=2
# expect: ins_size 2, but the proto has 1 argument words
.class public LBadInsMismatch;
.super Ljava/lang/Object;

.method public static f(I)V
    .registers 2
    const v0, 0x7e57ca5e
    return-void
.end method
