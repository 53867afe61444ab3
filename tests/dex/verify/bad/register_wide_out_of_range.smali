# rule: both halves of a wide register are below registers_size (CheckWideRegisterIndex)
# expect: register v2 (second half of a pair) out of range (registers_size 2)
.class public LBadRegisterWideOutOfRange;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    const-wide/16 v1, 0
    return-void
.end method
