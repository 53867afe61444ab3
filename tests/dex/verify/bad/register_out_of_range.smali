# rule: every register an instruction names is below registers_size
# expect: register v5 out of range (registers_size 2)
.class public LBadRegisterOutOfRange;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    const/4 v5, 0
    return-void
.end method
