export const KEY=0,CRYSTAL=1,SAND=2,ICE=3,RIME=4,LOW_BLOCKS=10;export const KINDS=["key","crystal","sand","ice","rime"],SIDES=["left","right","top","bottom"];export const DIRS={N:[0,-1],E:[1,0],S:[0,1],W:[-1,0]};export function compileCore(level){const W=level.width,H=level.height,n=level.blocks.length,beam=level.win==="beam";const I8=Int8Array,I32=Int32Array,c={n,W,H,kind:new I8(n),horiz:new I8(n),npos:new I8(n),mlo:new I32(n*8),mhi:new I32(n*8),fixlo:0,fixhi:0,olo:0,ohi:0,flagbit:new I8(n).fill(-1),hasRime:false,adjlo:new I32(8),adjhi:new I32(8),tilt:new I8(64),mult:new I32(n),winBeam:beam,side:SIDES.indexOf(level.exit.side),index:level.exit.index,beamX:new I8(8),beamY:new I8(8),};const mask=(x0,y0,w,h)=>{let lo=0,hi=0;for(let y=Math.max(y0,0);y<Math.min(y0+h,H);y++){for(let x=Math.max(x0,0);x<Math.min(x0+w,W);x++){const k=y*W+x;if(k<32)lo|=1<<k;else hi|=1<<(k-32);}}
return[lo,hi];};for(const[x,y]of level.walls||[]){const[lo,hi]=mask(x,y,1,1);c.fixlo|=lo;c.fixhi|=hi;}
for(const m of level.mirrors||[]){const[lo,hi]=mask(m.x,m.y,1,1);c.fixlo|=lo;c.fixhi|=hi;c.tilt[m.y*W+m.x]=m.tilt==="/"?1:2;}
let mult=1,flags=0;level.blocks.forEach((b,i)=>{const kd=KINDS.indexOf(b.kind),horiz=b.w>b.h;c.kind[i]=kd;c.horiz[i]=horiz;c.npos[i]=horiz?W-b.w+1:H-b.h+1;for(let p=0;p<c.npos[i];p++)[c.mlo[i*8+p],c.mhi[i*8+p]]=mask(horiz?p:b.x,horiz?b.y:p,b.w,b.h);if(kd===SAND||kd===RIME)c.flagbit[i]=flags++;if(kd===RIME)c.hasRime=true;if(kd===KEY)c.keyi=i;if(i===LOW_BLOCKS)mult=1;c.mult[i]=mult;mult*=c.npos[i];});c.flagMult=n>LOW_BLOCKS?mult:1;const k=c.keyi,kb=level.blocks[k],[dx,dy]=beam?DIRS[level.beam.dir]:[0,0],off=beam?level.beam.offset:0;c.bdx=dx;c.bdy=dy;for(let p=0;p<c.npos[k];p++){const x0=c.horiz[k]?p:kb.x,y0=c.horiz[k]?kb.y:p,a=mask(x0-1,y0,kb.w+2,kb.h),b=mask(x0,y0-1,kb.w,kb.h+2);c.adjlo[p]=(a[0]|b[0])&~c.mlo[k*8+p];c.adjhi[p]=(a[1]|b[1])&~c.mhi[k*8+p];c.beamX[p]=dx>0?x0+kb.w:dx<0?x0-1:x0+off;c.beamY[p]=dy>0?y0+kb.h:dy<0?y0-1:y0+off;}
c.winPos=c.side===1?W-kb.w:c.side===3?H-kb.h:0;return c;}
export function startOf(c,level){const pos=new Uint8Array(c.n);level.blocks.forEach((b,i)=>{pos[i]=c.horiz[i]?b.x:b.y;});return{pos,fl:thaw(c,pos,0)};}
export function thaw(c,pos,fl){if(!c.hasRime)return fl;const kp=pos[c.keyi],alo=c.adjlo[kp],ahi=c.adjhi[kp];for(let i=0;i<c.n;i++){if(c.kind[i]!==RIME)continue;const f=1<<c.flagbit[i];if(!(fl&f)&&((c.mlo[i*8+pos[i]]&alo)|(c.mhi[i*8+pos[i]]&ahi)))fl|=f;}
return fl;}
function occupy(c,pos){const mlo=c.mlo,mhi=c.mhi;let olo=c.fixlo,ohi=c.fixhi;for(let i=0;i<c.n;i++){olo|=mlo[i*8+pos[i]];ohi|=mhi[i*8+pos[i]];}
c.olo=olo;c.ohi=ohi;}
export function genMoves(c,pos,fl,mb,md){occupy(c,pos);const olo=c.olo,ohi=c.ohi,mlo=c.mlo,mhi=c.mhi,kind=c.kind,flagbit=c.flagbit,npos=c.npos;let n=0;for(let i=0;i<c.n;i++){const kd=kind[i],f=(fl>>flagbit[i])&1;if(kd===SAND?f:kd===RIME&&!f)continue;const p=pos[i],base=i*8,rlo=olo&~mlo[base+p],rhi=ohi&~mhi[base+p],top=base+npos[i];let a=base+p,z=a;while(a>base&&!((mlo[a-1]&rlo)|(mhi[a-1]&rhi)))a--;while(z+1<top&&!((mlo[z+1]&rlo)|(mhi[z+1]&rhi)))z++;a-=base+p;z-=base+p;if(kd===ICE){if(a){mb[n]=i;md[n++]=a;}
if(z){mb[n]=i;md[n++]=z;}}else{for(let d=a;d<=z;d++)if(d){mb[n]=i;md[n++]=d;}}}
return n;}
export function doMove(c,pos,fl,b,d){pos[b]+=d;if(c.kind[b]===SAND)return fl|(1<<c.flagbit[b]);return b===c.keyi?thaw(c,pos,fl):fl;}
export function traceLight(c,olo,ohi,x,y,dx,dy,cells){for(let steps=0;steps<c.W*c.H*4;steps++){if(cells)cells.push([x,y]);if(x<0||y<0||x>=c.W||y>=c.H){const side=x<0?0:x>=c.W?1:y<0?2:3;return side===c.side&&c.index===(side<2?y:x)?1:0;}
const cell=y*c.W+x,t=c.tilt[cell];if(t===1)[dx,dy]=[-dy,-dx];else if(t===2)[dx,dy]=[dy,dx];else if(cell<32?(olo>>>cell)&1:(ohi>>>(cell-32))&1)return-1;x+=dx;y+=dy;}
return-2;}
export function solved(c,pos){const kp=pos[c.keyi];if(!c.winBeam)return kp===c.winPos;occupy(c,pos);return traceLight(c,c.olo,c.ohi,c.beamX[kp],c.beamY[kp],c.bdx,c.bdy,null)===1;}
export function compile(level){const core=compileCore(level);return{level,core,width:core.W,height:core.H,n:core.n,key:core.keyi,exit:level.exit,blocks:level.blocks.map((k)=>({...k,horiz:k.w>k.h})),win:level.win||"exit",beam:core.winBeam?level.beam:null,};}
function bitsOf(c,s){const fb=c.flagbit;let fl=0;for(let i=0;i<fb.length;i++)if(fb[i]>=0&&s.flags[i])fl|=1<<fb[i];return fl;}
function flagsOf(c,fl){const fb=c.flagbit,out=new Array(fb.length);for(let i=0;i<fb.length;i++)out[i]=fb[i]>=0?(fl>>fb[i])&1:0;return out;}
export function startState(b){const{pos,fl}=startOf(b.core,b.level);return{pos:Array.from(pos),flags:flagsOf(b.core,fl)};}
export function rect(b,s,i){const k=b.blocks[i],p=s.pos[i];return k.horiz?{x:p,y:k.y,w:k.w,h:k.h}:{x:k.x,y:p,w:k.w,h:k.h};}
export const stateKey=(s)=>s.pos.join(",")+"|"+s.flags.join("");const MB=new Int8Array(128),MD=new Int8Array(128);export function legalMoves(b,s){const n=genMoves(b.core,s.pos,bitsOf(b.core,s),MB,MD),out=[];for(let k=0;k<n;k++)out.push([MB[k],MD[k]]);return out;}
export function applyMove(b,s,[i,d]){if(!legalMoves(b,s).some((m)=>m[0]===i&&m[1]===d))throw new Error(`illegal move [${i}, ${d}]`);return applyLegal(b,s,[i,d]);}
export function applyLegal(b,s,[i,d]){const c=b.core,pos=s.pos.slice();return{pos,flags:flagsOf(c,thaw(c,pos,doMove(c,pos,bitsOf(c,s),i,d)))};}
export function trace(b,s,x,y,dx,dy){const c=b.core,cells=[];occupy(c,s.pos);const r=traceLight(c,c.olo,c.ohi,x,y,dx,dy,cells),end=r===-2?null:cells.pop();return{solved:r===1,cells,end,stop:r===-2?"loop":r===-1?"blocked":"edge"};}
export function beamPath(b,s){const c=b.core,kp=s.pos[c.keyi],x=c.beamX[kp],y=c.beamY[kp];if(!c.winBeam)return{solved:false,cells:[],end:null,stop:"none"};return{...trace(b,s,x,y,c.bdx,c.bdy),start:[x,y,c.bdx,c.bdy]};}
export const isSolved=(b,s)=>solved(b.core,s.pos);
