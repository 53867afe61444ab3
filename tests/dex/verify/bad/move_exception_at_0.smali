# rule: move-exception is never the first instruction (HandleMoveException: "move-exception at pc 0x0")
# expect: invalid use of move-exception (at pc 0)
.class public LBadMoveExceptionAt0;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    move-exception v0
    throw v0
.end method
