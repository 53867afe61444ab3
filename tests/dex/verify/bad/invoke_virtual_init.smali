# rule: <init> may only be called by invoke-direct (ART: "rejecting non-direct call to
# constructor")
# expect: non-direct call to a constructor
.class public LBadInvokeVirtualInit;
.super Ljava/lang/Object;

.method public static f()Ljava/lang/Object;
    .registers 1
    new-instance v0, Ljava/lang/Object;
    invoke-virtual {v0}, Ljava/lang/Object;-><init>()V
    return-object v0
.end method
