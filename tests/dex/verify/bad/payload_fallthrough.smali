# rule: payloads are never executed (ART: "encountered data table in instruction stream")
# expect: execution reaches a payload
.class public LBadPayloadFallthrough;
.super Ljava/lang/Object;

.method public static f(I)V
    .registers 1
    packed-switch v0, :t
    :t
    .packed-switch 0x0
        :a
    .end packed-switch
    :a
    return-void
.end method
