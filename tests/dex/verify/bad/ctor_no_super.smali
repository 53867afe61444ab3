# rule: a constructor may not return before <init> was called on this
# expect: constructor returns before calling <init> on this
.class public LBadCtorNoSuper;
.super Ljava/lang/Object;

.method public constructor <init>()V
    .registers 2
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    return-void
.end method
