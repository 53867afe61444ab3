# rule: payloads sit at even code-unit addresses ("unaligned switch table"); smali
# aligns them, so the test moves the switch's payload offset (code unit 4) by one
# patch: unit 4 += 1
# expect: payload at odd address 9
.class public LBadPayloadOdd;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const v0, 0x7e57ca5e
    packed-switch v0, :t
    return-void
    :t
    .packed-switch 0x0
        :a
    .end packed-switch
    :a
    return-void
.end method
