# rule: no instruction calls a class initializer (ART: "rejecting call to class
# initializer")
# expect: call to a class initializer
.class public LBadInvokeClinit;
.super Ljava/lang/Object;

.method public static f()V
    .registers 0
    invoke-static {}, LBadInvokeClinit;-><clinit>()V
    return-void
.end method
