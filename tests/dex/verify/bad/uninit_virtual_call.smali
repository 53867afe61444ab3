# rule: only invoke-direct <init> may take an uninitialized receiver
# expect: expected an initialized reference (only <init> takes an uninitialized receiver)
.class public LBadUninitVirtualCall;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    new-instance v0, Ljava/lang/Object;
    invoke-virtual {v0}, Ljava/lang/Object;->hashCode()I
    return-void
.end method
