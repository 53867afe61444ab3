# rule: move-wide copies a whole pair (CopyRegister2: "copy2"); here its high half was overwritten
# expect: v0/v1 is not a wide pair
.class public LBadMoveWideBrokenPair;
.super Ljava/lang/Object;

.method public static f()V
    .registers 4
    const-wide/16 v0, 7
    const/4 v1, 0
    move-wide v2, v0
    return-void
.end method
