# The runtime's beat class as dex (good): i(I)V, o(I)V and at(Landroid/app/Activity;Z)V,
# public static; tight_test.sh's runtime check.
.class public Lcom/tencent/matrix/trace/core/AppMethodBeat;
.super Ljava/lang/Object;

.method public static i(I)V
    .registers 1
    return-void
.end method

.method public static o(I)V
    .registers 1
    return-void
.end method

.method public static at(Landroid/app/Activity;Z)V
    .registers 2
    return-void
.end method
