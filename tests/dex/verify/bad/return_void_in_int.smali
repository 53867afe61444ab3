# rule: return-void only in a method returning void
# expect: return-void in a method returning I
.class public LBadReturnVoidInInt;
.super Ljava/lang/Object;

.method public static f()I
    .registers 1
    return-void
.end method
