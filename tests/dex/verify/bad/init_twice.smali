# rule: invoke-direct <init> needs an uninitialized receiver
# expect: which is already initialized
.class public LBadInitTwice;
.super Ljava/lang/Object;

.method public static f()Ljava/lang/Object;
    .registers 1
    new-instance v0, Ljava/lang/Object;
    invoke-direct {v0}, Ljava/lang/Object;-><init>()V
    invoke-direct {v0}, Ljava/lang/Object;-><init>()V
    return-object v0
.end method
