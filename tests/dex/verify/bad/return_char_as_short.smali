# rule: a short method does not return a char (their ranges differ; only int is taken as it is)
# expect: v0 is char, expected short
.class public LBadReturnCharAsShort;
.super Ljava/lang/Object;

.method public static f()S
    .registers 1
    invoke-static {}, LBadReturnCharAsShort;->c()C
    move-result v0
    return v0
.end method

.method public static c()C
    .registers 1
    const/16 v0, 0x41
    return v0
.end method
