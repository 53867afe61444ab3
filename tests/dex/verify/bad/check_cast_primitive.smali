# rule: check-cast names a reference type ("check-cast on unexpected class")
# expect: check-cast to a primitive type I
.class public LBadCheckCastPrimitive;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)V
    .registers 1
    check-cast p0, I
    return-void
.end method
