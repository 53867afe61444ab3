# rule: constant widths: a boolean method returns 0 or 1 (or an int or byte it computed); the
# constant 2 is "a constant 0..127", not assignable to boolean (VerifyRegisterType)
# expect: v0 is a constant 0..127, expected boolean
.class public LBadReturnConstAsBoolean;
.super Ljava/lang/Object;

.method public static f()Z
    .registers 1
    const/4 v0, 2
    return v0
.end method
