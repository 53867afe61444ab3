# rule: invoke-custom's arguments match its call site's method type (here (IJ)J: a
# MethodHandle where the int goes)
# expect: v2 is Ljava/lang/invoke/MethodHandle;, expected int
.class public LBadInvokeCustomArg;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/invoke/MethodHandle;IJ)J
    .registers 6
    invoke-custom {v2, v4, v5}, call_site_0("add", (IJ)J, "x")@LBadInvokeCustomArg;->bsm(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;)Ljava/lang/invoke/CallSite;
    move-result-wide v0
    invoke-polymorphic {v2, v3, v0, v1}, Ljava/lang/invoke/MethodHandle;->invoke([Ljava/lang/Object;)Ljava/lang/Object;, (IJ)J
    move-result-wide v0
    return-wide v0
.end method

.method public static bsm(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;)Ljava/lang/invoke/CallSite;
    .registers 4
    const/4 v0, 0
    return-object v0
.end method
