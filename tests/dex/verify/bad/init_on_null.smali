# rule: <init> is called on an uninitialized object, never on null ("unable to initialize null ref")
# expect: <init> called on null (v0)
.class public LBadInitOnNull;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const/4 v0, 0
    invoke-direct {v0}, Ljava/lang/Object;-><init>()V
    return-void
.end method
