# rule: invoke-polymorphic names MethodHandle.invoke/invokeExact or a VarHandle access mode,
# taking one Object[] and returning what the name says (CheckSignaturePolymorphicMethod)
# api: 28
# expect: Signature polymorphic method name invalid: invokeWithArguments
.class public LBadInvokePolymorphicBadName;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/invoke/MethodHandle;)V
    .registers 2
    invoke-polymorphic {p0}, Ljava/lang/invoke/MethodHandle;->invokeWithArguments([Ljava/lang/Object;)Ljava/lang/Object;, ()V
    return-void
.end method
