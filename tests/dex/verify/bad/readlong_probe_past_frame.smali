# rule: every register an instruction names is below registers_size: issue 18's readLong
# as the instrumenter once rewrote it (an obfuscated Play-services Parcel reader). The frame
# is tight (v0, p0 = v1, p1 = v2), the wide result lives in p0:p1 = v1:v2, and the exit
# probe took the register after them, v3 (p2), one past the frame; v0 was free. ART rejects
# the class (VerifyError) and the app crashes on first use.
# expect: register v3 out of range (registers_size 3)
.class public LBadReadLongProbePastFrame;
.super Ljava/lang/Object;

.method public static readLong(Landroid/os/Parcel;I)J
    .registers 3
    const/16 v0, 0x18a0
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    invoke-virtual {p0}, Landroid/os/Parcel;->readLong()J
    move-result-wide p0
    const/16 v3, 0x18a0
    invoke-static {v3}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return-wide p0
.end method
