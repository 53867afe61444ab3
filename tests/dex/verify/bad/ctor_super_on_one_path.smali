# rule: this must be initialized on every path to a return (the flag joins with AND)
# expect: constructor returns before calling <init> on this
.class public LBadCtorSuperOnOnePath;
.super Ljava/lang/Object;

.method public constructor <init>(Z)V
    .registers 2
    if-eqz p1, :skip
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    :skip
    return-void
.end method
